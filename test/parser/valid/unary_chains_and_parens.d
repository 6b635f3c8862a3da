/* deep parentheses and chains of unary operators: !-~ combinations, casts of casts, sizeof of a string literal */

BEGIN
{
	x = 5;
	a = !-~x;
	b = -~!x;
	c = ~-x;
	d = - -x;
	e = !!!x;
	f = ((((((x))))));
	g = (int)(long)(short)(char)x;
	h = -(int)-x;
	i = sizeof("abc");
	printf("%d %d %d %d %d %d %d %d %d\n", a, b, c, d, e, f, g, h, i);
	exit(0);
}
