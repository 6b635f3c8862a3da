/* dtx-args: -q */
/* printa()'s %@ takes any integer conversion, with flags and width. */

BEGIN
{
	@c = sum(255);
	@n = sum(-2);
	printa("%@u %@x %@X %@o %@5d|%-5@d|%05@d\n", @c);
	printa("%@d %@i %+@d\n", @n);
	exit(0);
}
