/* dtx-args: -q -x aggsortkey -x aggsortrev */
/*
 * printa() of two aggregations with two-field keys under aggsortkey and
 * aggsortrev: every key of either, in reverse key order (first field, then
 * the second), 0 where an aggregation lacks the key.
 */

BEGIN
{
	@a[1, "x"] = sum(5);
	@a[2, "y"] = sum(1);
	@a[1, "y"] = sum(3);
	@b[1, "x"] = count();
	@b[2, "z"] = count();
	printa("%d %s %@d %@d\n", @a, @b);
	exit(0);
}
