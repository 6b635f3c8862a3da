/* logical operators in expressions: ! && ^^ || precedence (&& over ^^ over ||) and short circuit */

BEGIN
{
	t = 1;
	z = 0;
	a = t && z || t;
	b = t || z && z;
	c = t ^^ t ^^ t;
	d = t && z ^^ t;
	e = t ^^ z || z;
	f = !t || !z;
	g = !(t && z) ^^ !!z;
	h = z && (x = 5);
	i = t || (x = 6);
	j = t | z && t & z || t ^ z;
	printf("%d %d %d %d %d %d %d %d %d %d\n", a, b, c, d, e, f, g, h, i, j);
	exit(0);
}
