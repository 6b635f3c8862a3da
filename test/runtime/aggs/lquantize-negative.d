/* dtx-args: -q */
/* lquantize() with a negative lower bound, and values below, inside and above the range. */

BEGIN
{
	@l = lquantize(-20, -10, 10, 5);
	@l = lquantize(-10, -10, 10, 5);
	@l = lquantize(-6, -10, 10, 5);
	@l = lquantize(-1, -10, 10, 5);
	@l = lquantize(0, -10, 10, 5);
	@l = lquantize(3, -10, 10, 5);
	@l = lquantize(9, -10, 10, 5);
	@l = lquantize(10, -10, 10, 5);
	@l = lquantize(25, -10, 10, 5);
	exit(0);
}
