/* dtx-args: -q -w */
/*
 * stop() in dtx's own process (BEGIN and END run there) does not stop dtx,
 * which would hang with no word said: dtx warns once per call and goes on.
 */

BEGIN
{
	stop();
	printf("BEGIN went on\n");
	exit(0);
}

END
{
	stop();
	printf("END went on\n");
}
