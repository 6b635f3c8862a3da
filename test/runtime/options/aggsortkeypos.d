/* dtx-args: -q -x aggsortkey -x aggsortkeypos=1 */
/* aggsortkeypos=1: with aggsortkey, rows are sorted by the second key first. */

BEGIN
{
	@[1, "c"] = sum(30);
	@[2, "a"] = sum(10);
	@[3, "b"] = sum(20);
	exit(0);
}
