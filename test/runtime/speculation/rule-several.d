/* dtx-args: -q */
/* Every rule broken in a clause is reported, in program order. */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	printf("first\n");
	speculate(spec);
	speculate(spec);
	@a = count();
	commit(spec);
	printf("last\n");
	exit(0);
}
