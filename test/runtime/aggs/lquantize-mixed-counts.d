/* dtx-args: -q */
/* lquantize() with a negative increment in one bucket: two-sided bars. */

BEGIN
{
	@l = lquantize(-5, -10, 10, 5);
	@l = lquantize(3, -10, 10, 5, -2);
	exit(0);
}
