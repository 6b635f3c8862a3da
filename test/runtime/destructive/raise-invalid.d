/* dtx-args: -q -w */
/*
 * A signal number outside 1..SIGRTMAX is an illegal operation
 * (DTRACEFLT_ILLOP, 3): the ERROR probe fires and nothing is sent.
 */

BEGIN
{
	raise(100);
}

BEGIN
{
	raise(-1);
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d\n", arg4);
}
