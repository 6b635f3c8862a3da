/* dtx-args: -q */
/* Global variables: implicit types from the first assignment, declared types, compound assignment. */

int64_t big;

BEGIN
{
	x = 10;
	y = x * 3;
	s = "str";
	printf("%d %d %s\n", x, y, s);
	x += 5;
	y -= x;
	printf("%d %d\n", x, y);
	big = 1;
	big <<= 40;
	printf("%d\n", big);
	s = "changed";
	printf("%s\n", s);
	exit(0);
}
