/* dtx-args: -q */
/*
 * discard() may share its clause with data-recording actions and exit(),
 * before or after them (unlike commit()); those records are not speculative.
 */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	printf("speculative: not printed\n");
}

BEGIN
{
	printf("before discard()\n");
	discard(spec);
	printf("after discard()\n");
	exit(0);
}

ERROR
{
	exit(1);
}
