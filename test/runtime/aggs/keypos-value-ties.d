/* dtx-args: -q -x aggsortkeypos=1 -x aggsortrev */
/*
 * aggsortkeypos without aggsortkey orders equal values by the keys from
 * that field on; aggsortrev reverses everything.
 */

BEGIN
{
	@[1, "b"] = sum(1);
	@[2, "a"] = sum(1);
	@[0, "c"] = sum(2);
	@[3, "a"] = sum(1);
	printa("%d %s %@d\n", @);
	exit(0);
}
