/* dtx-args: -q */
/*
 * printa() with a format: one formatted row per key, no leading newline;
 * several aggregations join on their keys. Printed aggregations are not
 * printed again at exit.
 */

BEGIN
{
	@c["a"] = count();
	@c["b"] = count();
	@c["b"] = count();
	@s["a"] = sum(10);
	@s["b"] = sum(20);
	printa("%s: %@d\n", @c);
	printa("%-3s|%@5d|\n", @s);
	printf("--\n");
	printa("%s %@d %@d\n", @c, @s);
	exit(0);
}
