/* dtx-args: -q */
/* No aggregation after speculate(): aggregations are not speculative [D_AGG_SPEC]. */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	@counts = count();
}
