/* invalid: a parenthesis opened inside a call argument is never closed */

BEGIN
{
	printf("%d\n", (pid + 1);
	exit(0);
}
