/* dtx-args: -q */
/*
 * Arrays inside structs: an int array indexed by constants and by variables,
 * a char array read as a string, an array of structs inside a struct, in a
 * global and in a thread-local.
 */

struct point {
	int x;
	int y;
};

struct shape {
	int tags[3];
	char name[8];
	struct point corner[2];
};

struct shape g;
self struct shape s;

BEGIN
{
	g.tags[0] = 10;
	g.tags[1] = 11;
	i = 2;
	g.tags[i] = g.tags[0] + g.tags[1];
	g.name[0] = 'b';
	g.name[1] = 'o';
	g.name[2] = 'x';
	g.name[3] = 0;
	g.corner[1].x = 5;
	g.corner[i - 2].y = -5;
	printf("%d %d %d %s %d %d %d %d\n", g.tags[0], g.tags[1], g.tags[2], g.name,
	    g.corner[0].x, g.corner[0].y, g.corner[1].x, g.corner[1].y);

	self->s.tags[i - 1] = 7;
	self->s.corner[i - 1].y = self->s.tags[1] * 3;
	self->s.name[0] = 'q';
	printf("%d %d %d %s %d\n", self->s.tags[0], self->s.tags[1], self->s.tags[2], self->s.name,
	    self->s.corner[1].y);
	printf("%d %d %d\n", sizeof (g.tags), sizeof (g.corner), sizeof (struct shape));
	self->s.tags[1] = 0;
	exit(0);
}
