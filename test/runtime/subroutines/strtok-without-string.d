/*
 * strtok(NULL, ...) with no scan to continue is an invalid address
 * (DTRACEFLT_BADADDR, 1), as in dtrace-utils' strtok tests.
 */
#pragma D option quiet

BEGIN
{
	trace(strtok(NULL, "!"));
	exit(1);
}

ERROR
{
	printf("fault %d\n", arg4);
	exit(0);
}
