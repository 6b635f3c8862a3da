/* dtx-args: -q */
/*
 * dtrace.d: the fault kinds, the numbers dtrace:::ERROR reports in arg4.
 */

BEGIN
{
	printf("%d %d %d %d %d\n", DTRACEFLT_UNKNOWN, DTRACEFLT_BADADDR,
	    DTRACEFLT_BADALIGN, DTRACEFLT_ILLOP, DTRACEFLT_DIVZERO);
	printf("%d %d %d %d %d\n", DTRACEFLT_NOSCRATCH, DTRACEFLT_KPRIV,
	    DTRACEFLT_UPRIV, DTRACEFLT_TUPOFLOW, DTRACEFLT_BADSTACK);
}

BEGIN
{
	this->zero = 0;
	trace(1 / this->zero);
}

BEGIN
{
	trace(*(int *)8);
}

ERROR
{
	printf("%s %d\n", arg4 == DTRACEFLT_DIVZERO ? "divide by zero" :
	    arg4 == DTRACEFLT_BADADDR ? "bad address" : "other", arg5);
}

BEGIN
{
	exit(0);
}
