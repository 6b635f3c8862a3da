/* dtx-args: -q */
/* The ?: operator, nested, with strings and integers. */

BEGIN
{
	x = 5;
	printf("%s\n", x > 3 ? "gt" : "le");
	printf("%d\n", x < 3 ? 1 : x == 5 ? 2 : 3);
	y = x ? x * 2 : -1;
	printf("%d\n", y);
	exit(0);
}
