/* dtx-args: -q -x specsize=512 -x strsize=256 */
/*
 * specsize from -x: a record holding a 256-byte string fits in 512 bytes,
 * a second one does not (two speculative drops for the second and third).
 */

BEGIN
{
	spec = speculation();
}

BEGIN { speculate(spec); printf("%s\n", "first"); }
BEGIN { speculate(spec); printf("%s\n", "second"); }
BEGIN { speculate(spec); printf("%s\n", "third"); }
BEGIN { commit(spec); }

BEGIN
{
	exit(0);
}
