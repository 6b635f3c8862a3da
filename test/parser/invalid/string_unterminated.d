/* invalid: a string literal runs into the end of the line */

BEGIN
{
	printf("this string never ends);
	exit(0);
}
