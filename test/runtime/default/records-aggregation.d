/* dtx-cpu: 0 */
/*
 * A clause with only aggregations records nothing (dtrace-utils counts them
 * apart from data-recording actions); with another action it records.
 */

BEGIN
{
	@a = count();
	@b["x"] = sum(3);
}

BEGIN
{
	@a = count();
	trace("and");
}

BEGIN
{
	exit(0);
}
