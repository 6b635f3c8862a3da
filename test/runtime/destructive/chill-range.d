/* dtx-args: -q -w */
/*
 * chill() spins at most half a second in one call: more (or a negative
 * time) is an illegal operation (DTRACEFLT_ILLOP, 3) and does not spin.
 */

BEGIN
{
	chill(500000001);
}

BEGIN
{
	chill(-1);
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d in the clause at EPID %d\n", arg4, arg1);
}
