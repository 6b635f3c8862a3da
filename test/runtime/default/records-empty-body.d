/* dtx-cpu: 0 */
/* An empty body is dtrace's default action: the probe line alone. */

BEGIN
{
}

BEGIN
{
	i = 0;
}

BEGIN
{
}

BEGIN
{
	exit(0);
}
