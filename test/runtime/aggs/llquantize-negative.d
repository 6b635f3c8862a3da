/* dtx-args: -q */
/*
 * llquantize() of negative values (dtrace-utils): negative buckets mirror the
 * positive ones, down to the "<= -factor^(hmag+1)" bucket.
 */

BEGIN
{
	@ll = llquantize(-200, 10, 0, 1, 10);
	@ll = llquantize(-50, 10, 0, 1, 10);
	@ll = llquantize(-5, 10, 0, 1, 10);
	@ll = llquantize(0, 10, 0, 1, 10);
	@ll = llquantize(3, 10, 0, 1, 10);
	@ll = llquantize(42, 10, 0, 1, 10);
	@ll = llquantize(200, 10, 0, 1, 10);
	exit(0);
}
