/* dtx-cpu: 0 */
/*
 * A clause with speculate() and no data-recording action still records the
 * firing, into its speculation: once committed, it shows as a probe line of
 * its own (between the two traced values here), as dtrace-utils shows it.
 * Its statements after speculate() run.
 */

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	n++;
}

BEGIN
{
	trace(n);
}

BEGIN
{
	commit(s);
}

BEGIN
{
	trace("last");
	exit(0);
}
