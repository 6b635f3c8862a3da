/* invalid: the array dimension of a declaration is not closed by ] */

int counts[10;

BEGIN
{
	exit(0);
}
