/* dtx-args: -q -x strsize=32 -x specsize=41 */
/*
 * A string counts strsize + 1 bytes against specsize (its NUL included), as
 * dtrace records it: 8 + 33 bytes fit in specsize=41 exactly.
 */

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("%s\n", "a string that fits");
	n++;
}

BEGIN
{
	commit(s);
}

BEGIN
{
	printf("the clause ran %d times\n", n);
	exit(0);
}
