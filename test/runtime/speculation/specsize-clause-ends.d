/* dtx-args: -q -x specsize=63 */
/*
 * specsize counts a speculative record as dtrace lays it out: 8 bytes, then
 * its values (seven 64-bit integers: 56 bytes), 64 in all here. The value
 * that takes it past specsize ends the clause in the kernel, a speculative
 * drop: the statement after it does not run.
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
	printf("statements after the drop ran %d times\n", n);
	exit(0);
}
