/* dtx-args: -q */
/*
 * A two-dimensional global array: elements stored and read by constant and
 * variable indexes, rows laid out one after the other (row-major), and an
 * array of arrays inside a struct kept in a thread-local.
 */

int m[3][4];

struct grid {
	char cell[2][3];
};

self struct grid g;

BEGIN
{
	m[0][0] = 1;
	m[2][3] = 23;
	r = 1;
	c = 2;
	m[r][c] = 12;
	m[r + 1][c - 2] = m[r][c] + m[2][3];
	printf("%d %d %d %d %d\n", m[0][0], m[1][2], m[2][0], m[2][3], m[0][3]);
	printf("%d %d %d\n", sizeof (m), sizeof (m[1]), sizeof (m[1][1]));

	self->g.cell[1][2] = 'z';
	self->g.cell[0][c] = 'a';
	self->g.cell[r][0] = self->g.cell[0][2] + 1;
	printf("%c %c %c %d\n", self->g.cell[1][2], self->g.cell[0][2], self->g.cell[1][0],
	    self->g.cell[0][0]);
	self->g.cell[1][2] = 0;
	exit(0);
}
