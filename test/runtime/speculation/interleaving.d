/* dtx-args: -q */
/*
 * Records that are not speculative print as they come; a speculation's
 * records wait for its commit(), then print in the order they were traced,
 * whatever came between them.
 */

BEGIN
{
	spec = speculation();
	printf("plain 1\n");
}

BEGIN
{
	speculate(spec);
	printf("speculative 1\n");
}

BEGIN
{
	printf("plain 2\n");
}

BEGIN
{
	speculate(spec);
	printf("speculative 2\n");
	trace(spec);
	printf("\n");
}

BEGIN
{
	printf("plain 3\n");
}

BEGIN
{
	commit(spec);
}

BEGIN
{
	printf("plain 4\n");
	exit(0);
}
