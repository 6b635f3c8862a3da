/* dtx-args: -q */
/* exit() may not follow speculate(): it cannot be speculative [D_EXIT_SPEC]. */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	exit(0);
}
