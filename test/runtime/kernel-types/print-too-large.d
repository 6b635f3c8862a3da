/* A value larger than a record cannot be printed: the error names its size. */

struct big {
	char bytes[20000];
};

struct big b;

BEGIN
{
	print(b);
	print(b.bytes[0]);
	exit(0);
}
