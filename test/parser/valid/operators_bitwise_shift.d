/* bitwise and shift operators with their relative precedence: ~ << >> & ^ | */

BEGIN
{
	x = 0xf0;
	a = x & 0x3c | 0x01;
	b = x ^ 0xff & 0x0f;
	c = x | 0x0f ^ 0x03 & 0x01;
	d = 1 << 4 + 1;
	e = x >> 2 >> 1;
	f = ~x & 0xff;
	g = (x & 0x30) >> 4 << 1;
	h = 1 << 63 >> 63;
	i = ~~x;
	j = x & 1 == 0;
	printf("%x %x %x %x %x %x %x %x %x %d\n", a, b, c, d, e, f, g, h, i, j);
	exit(0);
}
