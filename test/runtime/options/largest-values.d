/* dtx-args: -q -x bufsize=512m -x aggsize=8388607t -x dynvarsize=8388607t -x specsize=8388607t -x nspec=1024 -x stackframes=127 -x ustackframes=127 */
/* dtx-timeout: 30 */
/*
 * The largest value of each size and count dtx acts on loads and traces: a
 * value that passes validation must not fail when the kernel creates the
 * maps (the 512m ring buffer takes a moment to allocate). strsize has its
 * own test, largest-strsize.
 */

BEGIN
{
	@counts[execname] = count();
	names[execname] = 1;
	self->seen = 1;
	trace(execname);
}

BEGIN
{
	printf("\n%d %d\n", names["dtx"], self->seen);
	exit(0);
}
