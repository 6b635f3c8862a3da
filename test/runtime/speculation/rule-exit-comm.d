/* dtx-args: -q */
/* exit() records too: it may not follow commit() [D_DREC_COMM]. */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	commit(spec);
	exit(0);
}
