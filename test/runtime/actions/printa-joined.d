/* dtx-args: -q */
/*
 * printa() of two aggregations with the same key signature, without and with
 * a format: one row per key of either, a key missing from one aggregation
 * shows a zero value there, rows are sorted by the first aggregation's value.
 */

BEGIN
{
	@a["x"] = count();
	@a["y"] = count();
	@a["y"] = count();
	@b["x"] = sum(10);
	@b["y"] = sum(3);
	@b["z"] = sum(4);
	printa(@a, @b);
	printa("%s %@d %@d\n", @a, @b);
	exit(0);
}
