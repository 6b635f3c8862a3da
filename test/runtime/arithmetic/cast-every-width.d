/* dtx-args: -q -C */
/*
 * Each of the eight integer types cast to each of the eight: first from
 * variables (at run time), then from constants (folded by the compiler); the
 * two halves print the same lines, C's. %d shows an unsigned value unsigned.
 */

signed char c;
short s;
int i;
long long l;
unsigned char uc;
unsigned short us;
unsigned int ui;
unsigned long long ul;

#define ROW(x) printf("%d %d %d %d %d %d %d %d\n", (signed char)(x), (short)(x), \
	(int)(x), (long long)(x), (unsigned char)(x), (unsigned short)(x), \
	(unsigned int)(x), (unsigned long long)(x))

#define K 0x89abcdeff0e1d2c3

BEGIN
{
	c = (signed char)K;
	s = (short)K;
	i = (int)K;
	l = (long long)K;
	uc = (unsigned char)K;
	us = (unsigned short)K;
	ui = (unsigned int)K;
	ul = (unsigned long long)K;
	ROW(c);
	ROW(s);
	ROW(i);
	ROW(l);
	ROW(uc);
	ROW(us);
	ROW(ui);
	ROW(ul);
	printf("--\n");
	ROW((signed char)K);
	ROW((short)K);
	ROW((int)K);
	ROW((long long)K);
	ROW((unsigned char)K);
	ROW((unsigned short)K);
	ROW((unsigned int)K);
	ROW((unsigned long long)K);
	exit(0);
}
