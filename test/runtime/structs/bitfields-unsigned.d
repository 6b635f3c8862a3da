/* dtx-args: -q */
/*
 * Unsigned bit-fields keep the low bits of what is stored (9 in a 3-bit
 * field is 1, -1 is 7), read back zero-extended, and a store leaves the
 * neighbouring fields alone. The same in a global, a thread-local, a
 * clause-local and an associative array element.
 */

struct flags {
	unsigned int ready : 1;
	unsigned int mode : 3;
	unsigned int level : 5;
	unsigned int rest : 23;
};

struct flags g;
self struct flags s;
this struct flags t;
struct flags a[string];

BEGIN
{
	g.ready = 1;
	g.mode = 5;
	g.level = 31;
	g.rest = 0x7fffff;
	printf("%u %u %u %u\n", g.ready, g.mode, g.level, g.rest);
	g.mode = 9;
	g.level = 32;
	printf("%u %u %u %u\n", g.ready, g.mode, g.level, g.rest);
	g.ready = 2;
	g.rest = g.rest + 1;
	g.mode = -1;
	printf("%u %u %u %u\n", g.ready, g.mode, g.level, g.rest);

	self->s.mode = 6;
	self->s.level = self->s.mode * 6;
	this->t.rest = 1 << 23 | 42;
	this->t.ready = 3;
	a["x"].level = 17;
	a["x"].mode = a["x"].level;
	printf("%u %u %u\n", self->s.mode, self->s.level, self->s.rest);
	printf("%u %u\n", this->t.rest, this->t.ready);
	printf("%u %u %u\n", a["x"].level, a["x"].mode, a["x"].ready);
	self->s.mode = 0;
	exit(0);
}
