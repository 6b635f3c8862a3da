/* dtx-args: -q */
/*
 * Sums that are zero print as 0 and sort among negative and positive sums
 * by value, then key; at exit as with printa().
 */

BEGIN
{
	@s["y"] = sum(0);
	@s["x"] = sum(3);
	@s["x"] = sum(-3);
	@s["w"] = sum(-0);
	@t["p"] = sum(5);
	@t["z"] = sum(0);
	@t["n"] = sum(-5);
	exit(0);
}
