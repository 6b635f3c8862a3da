/* dtx-args: -q -x aggsortrev */
/*
 * At exit, aggsortrev reverses the order of the aggregations as well as
 * their rows (dtrace sorts all of them in one walk).
 */

BEGIN
{
	@first["a"] = count();
	@first["b"] = count();
	@first["b"] = count();
	@second["c"] = sum(7);
	exit(0);
}
