/* invalid: no ; after a struct member declaration */

struct foo {
	int a
	int b;
};

BEGIN
{
	exit(0);
}
