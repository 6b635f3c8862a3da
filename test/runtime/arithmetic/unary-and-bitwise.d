/* dtx-args: -q */
/*
 * Unary minus, plus, ~ and ! on int, long and their unsigned kinds, folded
 * and from variables: -1u is unsigned (and greater than 0), -INT64_MIN is
 * itself, -INT_MIN is 2^31 until recorded as an int. Then & | ^ across
 * widths: an unsigned int operand is zero-extended into a long.
 */

BEGIN
{
	printf("%u %d %u %d\n", -(unsigned int)1, -(unsigned int)1 > 0, -(unsigned long)1,
	    -(int)0x80000000 > 0);
	one = 1u;
	onel = (unsigned long)1;
	imin = (int)0x80000000;
	printf("%u %d %u %d\n", -one, -one > 0, -onel, -imin > 0);

	l = (long)0x8000000000000000;
	printf("%d %d %d\n", -l, -imin, +(-5));
	printf("%u %d %u\n", ~0u, ~0, ~(unsigned long)0);
	zero = 0u;
	izero = 0;
	printf("%u %d %u\n", ~zero, ~izero, ~(unsigned long)zero);
	five = 5;
	m1 = -1;
	printf("%d %d %d %d %d %d\n", !0, !5, !-1, !izero, !five, !m1);

	printf("%d %d %d\n", 0xf0f0 & 0xff00, 0xf0 | 0x0f, 0xff ^ 0x0f);
	printf("%u %d %d %d\n", (unsigned int)0xffff0000 | 0xffff, -1L & 0xff,
	    (long)-1 ^ (unsigned int)0xffffffff, ~(int)0 & 0xffff);
	u = (unsigned int)0xffffffff;
	printf("%d %d\n", l ^ u, m1 & 0xff);
	exit(0);
}
