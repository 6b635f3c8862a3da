/* dtx-args: -q */
/*
 * A key missing from one of the aggregations of a printa() shows 0 there,
 * for min() and max() too, and sorts as 0 (dtrace's zero-filled data).
 */

BEGIN
{
	@mn["a"] = min(5);
	@mx["b"] = max(-3);
	printa(@mn, @mx);
	exit(0);
}
