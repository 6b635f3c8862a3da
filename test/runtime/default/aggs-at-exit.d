/* dtx-cpu: 0 */
/*
 * Default output: the probe line of the clause, then at exit a blank line
 * and the aggregations, as in quiet mode.
 */

BEGIN
{
	@calls["open"] = count();
	@calls["read"] = count();
	@calls["read"] = count();
	@total = sum(42);
	printf("recorded");
	exit(0);
}
