/* dtx-args: -q */
/* Relational operators compare strings by their bytes. */

BEGIN
{
	a = "abc";
	b = "abd";
	printf("%d %d %d %d %d\n", a == "abc", a != b, a < b, b > a, a >= b);
	printf("%s\n", a == b ? "same" : "different");
	exit(0);
}
