/* dtx-args: -q */
/*
 * Assigning 0 to a struct-typed thread-local or associative array element
 * frees it, as it frees any dynamic variable: it reads as zeros again.
 */

struct point {
	int x;
	int y;
};

self struct point p;
struct point a[int];

BEGIN
{
	self->p.x = 3;
	a[1].y = 4;
	printf("%d %d\n", self->p.x, a[1].y);
	self->p = 0;
	a[1] = 0;
	printf("%d %d\n", self->p.x, a[1].y);
	exit(0);
}
