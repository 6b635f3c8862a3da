/* dtx-args: -q */
/* No data-recording action after commit() [D_DREC_COMM]. */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	commit(spec);
	trace(spec);
}
