/* dtx-args: -q */
/*
 * Aggregations of one shape share a map, thread-locals and associative
 * arrays of one shape another: each acts on its own entries only (clear(),
 * trunc(), deleting by assigning 0), and the exit dump keeps the program's
 * order.
 */

BEGIN
{
	/* Keyed, 8-byte keys and values: one map. */
	@a[1] = count(); @a[2] = count(); @a[2] = count();
	@b[1] = sum(5); @b[2] = sum(7); @b[3] = sum(1);
	@c[2] = max(3);
	/* Keyless, 8-byte values: slots of one array. */
	@x = count(); @y = sum(3); @z = min(4);
	/* 16-byte keys: the thread's and a key, or the id's and a key. */
	self->m[1] = 10; self->n[1] = 20; g[1] = 30; h[1] = 40;
	self->m[2] = 11; g[2] = 31;
}

BEGIN
{
	clear(@a);
	trunc(@b, 1);
	clear(@y);
	trunc(@z);
	self->n[1] = 0;
	g[2] = 0;
}

BEGIN
{
	printa("a %d %@d\n", @a);
	printa("b %d %@d\n", @b);
	printf("%d %d %d %d %d %d\n", self->m[1], self->n[1], g[1], h[1], self->m[2], g[2]);
	exit(0);
}
