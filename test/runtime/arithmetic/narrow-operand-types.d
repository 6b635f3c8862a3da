/* dtx-args: -q */
/* dtx-xfail: D's usual arithmetic conversions take the operand of higher rank (char + char is a char, unsigned char * unsigned short an unsigned short, unary - and ~ keep their operand's type) and do not promote to int as C does; dtx promotes (codegen/types.cpp promote(), usual_arithmetic()) */
/*
 * D ranks integer types by width, an unsigned type just above its signed
 * kind, and gives a binary operation the type of its higher-ranked operand:
 * there is no promotion to int. So char arithmetic is recorded as a char,
 * sizeof (c + c) is 1, char compared with unsigned char compares unsigned,
 * and unary - and ~ keep their operand's type. The value is still computed
 * in 64 bits: (uc + uc) / 2 is 200.
 */

char c;
short s;
unsigned char uc;
unsigned short us;
long l;

BEGIN
{
	c = 100;
	printf("%d %d ", c * c, c + c);
	c = c + c;
	printf("%d\n", c);

	uc = 200;
	printf("%d %d %d %d\n", uc + uc, (uc + uc) / 2, ~uc, uc << 4);

	us = 65535;
	l = us * us;
	printf("%d %d %d\n", us * us, us * us > 0, l);

	s = -300;
	printf("%d %d %d\n", s * s, s / 7, s % 7);

	c = -128;
	printf("%d %d %d\n", -c, (char)-c, c - 1);
	printf("%d %d %d %d\n", sizeof (c + c), sizeof (uc * us), sizeof (c), sizeof (-s));

	c = -1;
	uc = 1;
	s = -1;
	us = 1;
	printf("%d %d %d %d\n", c < uc, s < us, (char)-1 < (unsigned char)1,
	    (short)-1 < (unsigned short)1);
	c = 0x7f;
	uc = 200;
	printf("%d %d %d %d\n", (char)0x7f + (char)1, c + (char)1, -(unsigned char)200, -uc);
	exit(0);
}
