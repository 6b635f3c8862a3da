/* dtx-args: -q -x specsize=24 */
/*
 * An int counts 4 bytes against specsize, as dtrace records it: each of
 * these speculative records is 8 + 4 bytes, so both fit in 24 together and
 * are printed; a third (a char) no longer fits with them and is dropped by
 * the consumer, while its clause, which fits alone, runs to its end.
 */

int i;
char c;

BEGIN
{
	s = speculation();
	i = 4;
	c = 1;
}

BEGIN
{
	speculate(s);
	printf("first %d\n", i);
}

BEGIN
{
	speculate(s);
	printf("second %d\n", i);
}

BEGIN
{
	speculate(s);
	printf("third %d\n", c);
	ran++;
}

BEGIN
{
	commit(s);
}

BEGIN
{
	printf("the third clause ran %d times\n", ran);
	exit(0);
}
