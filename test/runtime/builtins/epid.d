/* dtx-args: -q */
/*
 * epid names the enabled probe (probe and clause): not 0, different for two
 * clauses of one probe, the same for a clause in each firing.
 */

BEGIN
{
	a = epid;
}

BEGIN
{
	b = epid;
	n = 0;
}

tick-10ms
{
	e[n++] = epid;
}

tick-10ms
/n == 2/
{
	printf("%d %d %d %d\n", a != 0, a != b, e[0] == e[1], e[0] != epid);
	exit(0);
}
