/* dtx-args: -q */
/*
 * Keyed aggregations at exit: rows sorted by value, then by key; a string
 * key prints as "  %-50s", an int key as " %8d", the value as " %16lld".
 */

BEGIN
{
	@calls["read"] = count();
	@calls["read"] = count();
	@calls["read"] = count();
	@calls["write"] = count();
	@calls["open"] = count();
	@calls["open"] = count();
	@bytes["read", 1] = sum(100);
	@bytes["read", 2] = sum(50);
	@bytes["write", 1] = sum(75);
	exit(0);
}
