/* dtx-args: -q */
/*
 * A speculation ended by commit() or discard() stays busy until the consumer
 * has its records: speculation() in the same firing fails, and the failure
 * says the buffers are busy, not missing.
 */

BEGIN
{
	a = speculation();
}

BEGIN
{
	discard(a);
}

BEGIN
{
	printf("first %d, then %d\n", a, speculation());
	exit(0);
}
