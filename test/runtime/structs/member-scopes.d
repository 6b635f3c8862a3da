/* dtx-args: -q */
/*
 * Members of a struct (nested struct, char array, long) stored and read in
 * each scope: a global, a clause-local, a thread-local and an associative
 * array element; a store to one member leaves the others as they were.
 */

struct inner {
	short s;
	unsigned char flags;
};

struct outer {
	int id;
	struct inner in;
	long total;
	char tag[4];
};

struct outer g;
this struct outer t;
self struct outer s;
struct outer a[int];

BEGIN
{
	g.id = 1;
	g.in.s = -2;
	g.in.flags = 0x81;
	g.total = 1L << 40;
	g.tag[0] = 'g';
	g.tag[1] = 0;

	this->t.id = 2;
	this->t.in.s = -3;
	this->t.in.flags = 0x82;
	this->t.total = -(1L << 41);
	this->t.tag[0] = 't';
	this->t.tag[1] = 0;

	self->s.id = 3;
	self->s.in.s = -4;
	self->s.in.flags = 0x83;
	self->s.total = 1L << 42;
	self->s.tag[0] = 's';
	self->s.tag[1] = 0;

	a[7].id = 4;
	a[7].in.s = -5;
	a[7].in.flags = 0x84;
	a[7].total = -(1L << 43);
	a[7].tag[0] = 'a';
	a[7].tag[1] = 0;

	printf("%d %d %u %d %s\n", g.id, g.in.s, g.in.flags, g.total, g.tag);
	printf("%d %d %u %d %s\n", this->t.id, this->t.in.s, this->t.in.flags, this->t.total,
	    this->t.tag);
	printf("%d %d %u %d %s\n", self->s.id, self->s.in.s, self->s.in.flags, self->s.total,
	    self->s.tag);
	printf("%d %d %u %d %s\n", a[7].id, a[7].in.s, a[7].in.flags, a[7].total, a[7].tag);

	g.in.flags = 0;
	self->s.id = 30;
	a[7].in.s = 50;
	printf("%d %d %u %d\n", g.id, g.in.s, g.in.flags, g.total);
	printf("%d %d %u %d\n", self->s.id, self->s.in.s, self->s.in.flags, self->s.total);
	printf("%d %d %u %d\n", a[7].id, a[7].in.s, a[7].in.flags, a[7].total);
	exit(0);
}
