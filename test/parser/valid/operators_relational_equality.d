/* relational and equality operators: < <= > >= == != and their chaining and mixing with shifts */

BEGIN
{
	a = 3 < 4;
	b = 3 <= 3;
	c = 4 > 5;
	d = 5 >= 6;
	e = 1 == 1;
	f = 1 != 2;
	g = 1 < 2 == 2 > 1;
	h = 1 << 2 < 1 << 3;
	i = a == b != c;
	j = "abc" < "abd";
	k = execname == "dtx" != 0;
	printf("%d %d %d %d %d %d %d %d %d %d %d\n", a, b, c, d, e, f, g, h, i, j, k);
	exit(0);
}
