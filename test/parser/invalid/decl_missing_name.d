/* invalid: a pointer declaration with no declarator name */

int *;

BEGIN
{
	exit(0);
}
