/* the comma operator inside parentheses, distinct from argument and key separators */

BEGIN
{
	x = (a = 1, b = 2, a + b);
	printf("%d %d %d\n", x, a, b);
	y = (1, 2);
	arr[(1, 2)] = 3;
	exit(0);
}
