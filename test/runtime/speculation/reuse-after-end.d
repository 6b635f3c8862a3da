/* dtx-args: -q */
/*
 * Once the consumer has the records of a committed or discarded speculation,
 * its ID is free again: with nspec=1 every round gets speculation 1. Even rounds
 * commit, odd rounds discard.
 */

BEGIN
{
	n = 0;
}

tick-50ms
/n < 4/
{
	spec = speculation();
}

tick-50ms
/n < 4/
{
	speculate(spec);
	printf("round %d on speculation %d\n", n, spec);
}

tick-50ms
/n < 4 && n % 2 == 0/
{
	commit(spec);
}

tick-50ms
/n < 4 && n % 2 == 1/
{
	discard(spec);
}

tick-50ms
/n < 4/
{
	printf("round %d: speculation() returned %d\n", n, spec);
	n++;
}

tick-50ms
/n == 4/
{
	exit(0);
}
