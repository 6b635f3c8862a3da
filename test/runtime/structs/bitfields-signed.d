/* dtx-args: -q */
/*
 * Signed bit-fields read back sign-extended from their width: 4 in a 3-bit
 * field is -4, 7 is -1, -5 is 3; a 1-bit signed field holds 0 or -1; a
 * 33-bit long field holds -2^32 .. 2^32 - 1. Their values take part in
 * arithmetic and comparisons as negative numbers.
 */

struct sfields {
	int a : 3;
	int b : 4;
	int c : 1;
	long d : 33;
	char e : 5;
};

struct sfields f;
self struct sfields s;

BEGIN
{
	f.a = 3;
	f.b = 8;
	f.c = 1;
	f.d = 0x100000000;
	f.e = 15;
	printf("%d %d %d %d %d\n", f.a, f.b, f.c, f.d, f.e);
	f.a = 4;
	f.b = 7;
	f.d = 0xffffffff;
	f.e = 16;
	printf("%d %d %d %d %d\n", f.a, f.b, f.c, f.d, f.e);
	f.a = 7;
	f.c = 0;
	f.e = -17;
	printf("%d %d %d %d\n", f.a, f.c, f.e, f.a * 2 + f.b);
	f.a = -5;
	f.c = 1;
	printf("%d %d %d %d\n", f.a, f.c < 0, f.c == -1, f.d > 0);

	self->s.a = -4;
	self->s.d = -1;
	self->s.b = self->s.a - 5;
	printf("%d %d %d\n", self->s.a, self->s.b, self->s.d);
	self->s.a = 0;
	exit(0);
}
