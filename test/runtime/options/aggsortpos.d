/* dtx-args: -q */
/* aggsortpos=1: a printa() of two aggregations sorts by the second one's values. */

#pragma D option aggsortpos=1

BEGIN
{
	@a["x"] = sum(1);
	@a["y"] = sum(2);
	@a["z"] = sum(3);
	@b["x"] = sum(30);
	@b["y"] = sum(10);
	@b["z"] = sum(20);
	printa("%s %@d %@d\n", @a, @b);
	exit(0);
}
