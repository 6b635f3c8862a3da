/* dtx-args: -q */
/*
 * copyinstr() of an unmapped user address is an invalid address fault:
 * ERROR fires with arg4 DTRACEFLT_BADADDR (1) and arg5 the address; the
 * faulting clause stops, the next clause runs.
 */

BEGIN
{
	s = copyinstr(16);
	printf("not reached\n");
}

BEGIN
{
	printf("next clause\n");
}

ERROR
{
	printf("fault %d at %d\n", arg4, arg5);
}

BEGIN
{
	exit(0);
}
