/* dtx-args: -q */
/*
 * Whole structs assigned: a global copied into a thread-local, into a
 * clause-local, into an associative array element and back into another
 * global. Each copy is independent: changing it leaves the source alone.
 * Struct-valued associative arrays keep one struct per key.
 */

struct rec {
	int a;
	char name[6];
	short b;
	long c;
};

struct rec g;
struct rec h;
self struct rec s;
this struct rec t;
struct rec byid[int];

BEGIN
{
	g.a = 1;
	g.name[0] = 'o';
	g.name[1] = 'k';
	g.b = -2;
	g.c = 3000000000;

	self->s = g;
	self->s.a = 10;
	this->t = self->s;
	this->t.b = 20;
	byid[1] = this->t;
	byid[1].c = 30;
	byid[2] = g;
	h = byid[1];
	h.name[1] = 'x';

	printf("%d %s %d %d\n", g.a, g.name, g.b, g.c);
	printf("%d %s %d %d\n", self->s.a, self->s.name, self->s.b, self->s.c);
	printf("%d %s %d %d\n", this->t.a, this->t.name, this->t.b, this->t.c);
	printf("%d %s %d %d\n", byid[1].a, byid[1].name, byid[1].b, byid[1].c);
	printf("%d %s %d %d\n", byid[2].a, byid[2].name, byid[2].b, byid[2].c);
	printf("%d %s %d %d\n", h.a, h.name, h.b, h.c);
	self->s.a = 0;
	exit(0);
}
