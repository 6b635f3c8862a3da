/* dtx-args: -q */
/* && and || evaluate their right side only when needed; ^^ always does. */

BEGIN
{
	n = 0;
	a = 0 && n++;
	b = 1 || n++;
	c = 1 && n++;
	d = 0 || n++;
	printf("%d %d %d %d %d\n", a, b, c, d, n);
	e = 2 ^^ 3;
	f = 0 ^^ n++;
	printf("%d %d %d %d %d\n", e, f, n, !5, !0);
	exit(0);
}
