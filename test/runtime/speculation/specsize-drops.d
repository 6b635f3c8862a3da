/* dtx-args: -q */
/*
 * A speculation holds at most specsize bytes of records: a record that does
 * not fit any more is dropped (a speculative drop, reported at the end);
 * smaller ones that still fit are kept, and commit() prints what was kept.
 */
#pragma D option specsize=200
#pragma D option strsize=256

BEGIN
{
	spec = speculation();
	big = "this string goes into a record of more than 256 bytes";
}

BEGIN { speculate(spec); printf("small 1\n"); }
BEGIN { speculate(spec); printf("%s\n", big); }
BEGIN { speculate(spec); printf("small 2\n"); }
BEGIN { commit(spec); }

BEGIN
{
	exit(0);
}
