/* dtx-args: -q -x specsize=64 */
/*
 * specsize counts a speculative record as dtrace lays it out: 8 bytes, then
 * its values (seven 64-bit integers: 56 bytes), 64 in all here, which fits
 * in specsize=64 exactly: the record is kept and the clause runs to its
 * end.
 */

int64_t v;

BEGIN
{
	s = speculation();
	v = 7;
}

BEGIN
{
	speculate(s);
	printf("%d %d %d %d %d %d %d\n", v, v, v, v, v, v, v);
	n++;
}

BEGIN
{
	commit(s);
}

BEGIN
{
	printf("statements after the values ran %d times\n", n);
	exit(0);
}
