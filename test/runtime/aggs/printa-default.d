/* dtx-args: -q */
/* printa() without a format: a newline, then the rows as printed at exit. */

BEGIN
{
	@c["x"] = count();
	@c["y"] = count();
	@c["y"] = count();
	printa(@c);
	@n[1, "one"] = sum(5);
	printa(@n);
	@total = sum(3);
	printa(@total);
	exit(0);
}
