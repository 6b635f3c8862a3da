/* dtx-args: -q */
/* trunc(@, -n) keeps the n lowest values; trunc(@, 0) removes every entry. */

BEGIN
{
	@a["a"] = sum(1);
	@a["b"] = sum(2);
	@a["c"] = sum(3);
	@a["d"] = sum(4);
	trunc(@a, -2);
	printa(@a);
	@b["x"] = sum(10);
	@b["y"] = sum(20);
	trunc(@b, 0);
	printa(@b);
	@c["p"] = count();
	exit(0);
}
