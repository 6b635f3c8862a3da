/* dtx-args: -q */
/* trunc(@, n) keeps the n highest values; clear() zeroes values but keeps keys; trunc(@) empties. */

BEGIN
{
	@a["a"] = sum(1);
	@a["b"] = sum(2);
	@a["c"] = sum(3);
	@a["d"] = sum(4);
	trunc(@a, 2);
	printa(@a);
	@b["x"] = count();
	@b["y"] = count();
	clear(@b);
	printa(@b);
	@c["gone"] = count();
	trunc(@c);
	exit(0);
}
