/* dtx-args: -q */
/*
 * The most negative value divided by -1. A long's quotient overflows: the
 * division does not trap and gives the dividend back, with a remainder of 0.
 * An int's quotient is computed in 64 bits: 2147483648, which a long keeps
 * and an int shows as -2147483648. Every combination of signs.
 */

long q;

BEGIN
{
	l = (long)0x8000000000000000;
	i = (int)0x80000000;
	m = -1;
	printf("%d %d %d\n", l / m, l % m, l / m < 0);
	q = i / m;
	printf("%d %d %d %d\n", i / m, q, i / m > 0, i % m);
	q = (long)i / m;
	printf("%d\n", q);
	a = 7;
	b = -7;
	two = 2;
	mtwo = -2;
	printf("%d %d %d %d\n", a / two, a / mtwo, b / two, b / mtwo);
	printf("%d %d %d %d\n", a % two, a % mtwo, b % two, b % mtwo);
	printf("%d %d\n", l / 2, l % 3);
	exit(0);
}
