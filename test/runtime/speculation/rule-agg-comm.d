/* dtx-args: -q */
/* No aggregation after commit() [D_AGG_COMM]. */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	commit(spec);
	@counts[probename] = sum(1);
}
