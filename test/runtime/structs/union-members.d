/* dtx-args: -q */
/*
 * A union's members share their storage: an int written is read back as its
 * bytes (little-endian) and as two shorts; a union inside a struct, in a
 * global and in a thread-local; sizeof a union is its largest member's.
 */

union word {
	int i;
	unsigned char b[4];
	short h[2];
};

struct tagged {
	int kind;
	union word w;
};

union word u;
self struct tagged t;

BEGIN
{
	u.i = 0x01020304;
	printf("%d %d %d %d %d %d\n", u.b[0], u.b[1], u.b[2], u.b[3], u.h[0], u.h[1]);
	u.b[3] = 0xff;
	printf("%d %d\n", u.i, u.h[1]);

	self->t.kind = 2;
	self->t.w.h[0] = -1;
	self->t.w.h[1] = 0x7fff;
	printf("%d %d %u %u\n", self->t.kind, self->t.w.i, self->t.w.b[0], self->t.w.b[3]);
	printf("%d %d\n", sizeof (union word), sizeof (struct tagged));
	self->t.kind = 0;
	exit(0);
}
