/* invalid: offsetof with a type but no member name */

struct foo {
	int a;
	int b;
};

BEGIN
{
	x = offsetof(struct foo);
	exit(0);
}
