/* dtx-args: -q */
/*
 * setopt("aggsortkeypos", "1") with aggsortkey: two-key rows sorted by the
 * second key first, then the first. A bare setopt("aggsortkeypos") is 1 too
 * (dtrace passes "1").
 */

BEGIN
{
	@[1, "b"] = count();
	@[2, "a"] = count();
	@[3, "a"] = count();
	@[0, "c"] = count();
	setopt("aggsortkey");
	printa("%d %s %@d\n", @);
	setopt("aggsortkeypos", "1");
	printa("%d %s %@d\n", @);
	setopt("aggsortkeypos", "0");
	setopt("aggsortkeypos");
	printa("%d %s %@d\n", @);
	exit(0);
}
