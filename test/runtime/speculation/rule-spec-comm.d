/* dtx-args: -q */
/* speculate() may not follow commit() [D_SPEC_COMM]. */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	commit(spec);
	speculate(spec);
}
