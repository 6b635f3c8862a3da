/* dtx-args: -q */
/*
 * The ERROR probe's arguments: arg0 is 0, arg1 the EPID of the faulting
 * clause, arg4 the fault (DTRACEFLT_DIVZERO, 4), arg5 0 for a division. A
 * variable stored before the fault keeps its value.
 */

BEGIN
{
	e = epid;
	zero = 0;
	x = 1 / zero;
}

ERROR
{
	printf("%d %d %d %d\n", arg0, arg1 == e, arg4, arg5);
	printf("%s:%s:%s:%s %d\n", probeprov, probemod, probefunc, probename, id);
	exit(0);
}
