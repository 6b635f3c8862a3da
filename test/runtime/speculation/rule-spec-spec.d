/* dtx-args: -q */
/* speculate() may not follow speculate() in a clause [D_SPEC_SPEC]. */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	speculate(spec);
	printf("x\n");
}
