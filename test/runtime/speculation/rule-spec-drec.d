/* dtx-args: -q */
/* speculate() must come before data-recording actions [D_SPEC_DREC]. */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	printf("recorded\n");
	speculate(spec);
}
