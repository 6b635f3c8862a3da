/* arithmetic precedence and left associativity: * / % bind tighter than + -, unary minus and plus */

BEGIN
{
	a = 1 + 2 * 3;
	b = (1 + 2) * 3;
	c = 100 - 10 - 1;
	d = 100 / 10 / 5;
	e = 100 % 7 % 3;
	f = 2 * 3 % 4 / 1;
	g = -a + +b - -c;
	h = a - b + c * d / e % 5;
	i = -(a * b) / -2;
	j = 1 - -1;
	k = - - 2;
	printf("%d %d %d %d %d %d %d %d %d %d %d\n", a, b, c, d, e, f, g, h, i, j, k);
	exit(0);
}
