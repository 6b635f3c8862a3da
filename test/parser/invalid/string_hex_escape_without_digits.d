/* invalid: \x in a string literal is not followed by any hexadecimal digit */

BEGIN
{
	printf("no digits \xzz here\n");
	exit(0);
}
