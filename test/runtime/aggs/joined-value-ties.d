/* dtx-args: -q */
/*
 * printa() of two aggregations without a format: rows by the first one's
 * value, ties by the second's, then by key (dt_aggregate_bundlecmp).
 */

BEGIN
{
	@a["p"] = sum(1);
	@a["q"] = sum(1);
	@a["r"] = sum(2);
	@a["s"] = sum(1);
	@b["p"] = sum(5);
	@b["q"] = sum(3);
	@b["r"] = sum(0);
	@b["s"] = sum(5);
	printa(@a, @b);
	exit(0);
}
