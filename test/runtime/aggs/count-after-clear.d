/* dtx-args: -q */
/*
 * clear() keeps the keys with zero values: printa() shows them all as 0,
 * in key order (equal values are ordered by key).
 */

BEGIN
{
	@c["b"] = count();
	@c["a"] = count();
	@c["a"] = count();
	@c["c"] = count();
	printa(@c);
	clear(@c);
	printa(@c);
	exit(0);
}
