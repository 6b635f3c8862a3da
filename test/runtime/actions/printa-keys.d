/* dtx-args: -q */
/*
 * printa() with tuple keys: conversions take the keys in order, keys left
 * over are not printed, and %@ conversions after the last aggregation
 * repeat its value.
 */

BEGIN
{
	@t["a", 1] = sum(10);
	@t["b", 2] = sum(20);
	printa("%s|%@d\n", @t);
	printa("%s %d %@d %@d\n", @t);
	printa("[%-3s][%3d][%-4@d]\n", @t);
	exit(0);
}
