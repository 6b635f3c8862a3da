/* dtx-args: -q */
/* llquantize(): log-linear buckets, factor 10, magnitudes 0 to 2, 10 steps. */

BEGIN
{
	@ll = llquantize(0, 10, 0, 2, 10);
	@ll = llquantize(3, 10, 0, 2, 10);
	@ll = llquantize(15, 10, 0, 2, 10);
	@ll = llquantize(15, 10, 0, 2, 10);
	@ll = llquantize(250, 10, 0, 2, 10);
	@ll = llquantize(999, 10, 0, 2, 10);
	@ll = llquantize(5000, 10, 0, 2, 10);
	exit(0);
}
