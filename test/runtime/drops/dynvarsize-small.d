/* dtx-args: -q */
/*
 * A dynvarsize given says how many dynamic variables fit, as in dtrace:
 * 100 bytes hold one element here, and each store past it is a dynamic
 * variable drop, counted on stderr.
 */

#pragma D option dynvarsize=100

BEGIN
{
	a[1] = 1;
	a[2] = 2;
	a[3] = 3;
	self->t = 4;
	printf("%d %d %d %d\n", a[1], a[2], a[3], self->t);
	exit(0);
}
