/* dtx-args: -q -x aggsortkey -x aggsortrev */
/* aggsortkey with aggsortrev: rows in reverse key order. */

BEGIN
{
	@["b"] = sum(1);
	@["c"] = sum(3);
	@["a"] = sum(2);
	exit(0);
}
