/* dtx-args: -q */
/*
 * %f (like %e and %g) needs a floating-point argument; an integer does not
 * fit its prototype, a compile error (dtrace-utils: D_PRINTF_ARG_TYPE).
 */

BEGIN
{
	printf("%f\n", 1);
	exit(0);
}
