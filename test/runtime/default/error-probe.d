/* dtx-cpu: 0 */
/* Default output of an ERROR clause: its probe line has ID 3 and name ERROR. */

BEGIN
{
	zero = 0;
	x = 1 / zero;
}

ERROR
{
	printf("fault %d", arg4);
}

BEGIN
{
	exit(0);
}
