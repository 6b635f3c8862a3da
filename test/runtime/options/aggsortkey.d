/* dtx-args: -q -x aggsortkey */
/* aggsortkey: rows in key order instead of value order. */

BEGIN
{
	@["a"] = sum(2);
	@["b"] = sum(3);
	@["c"] = sum(1);
	exit(0);
}
