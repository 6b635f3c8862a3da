/* dtx-cpu: 0 */
/* Default output of printa(): the probe line, then the aggregation on the next lines. */

BEGIN
{
	@a["x"] = sum(3);
	printa(@a);
	printa("%s=%@d", @a);
	exit(0);
}
