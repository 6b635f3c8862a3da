/* dtx-args: -q */
/*
 * Division by zero aborts the clause and fires ERROR: arg4 is the fault
 * (DTRACEFLT_DIVZERO, 4), arg5 0. The error is also reported on stderr.
 */

ERROR
{
	printf("fault %d %d\n", arg4, arg5);
	exit(0);
}

BEGIN
{
	x = 0;
	y = 1 / x;
	printf("not reached\n");
}
