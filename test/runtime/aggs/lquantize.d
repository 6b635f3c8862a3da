/* dtx-args: -q */
/* lquantize(): linear buckets with the "< lower" and ">= upper" buckets. */

BEGIN
{
	@l = lquantize(-5, 0, 10, 2);
	@l = lquantize(0, 0, 10, 2);
	@l = lquantize(1, 0, 10, 2);
	@l = lquantize(3, 0, 10, 2);
	@l = lquantize(4, 0, 10, 2);
	@l = lquantize(4, 0, 10, 2);
	@l = lquantize(9, 0, 10, 2);
	@l = lquantize(10, 0, 10, 2);
	@l = lquantize(15, 0, 10, 2);
	exit(0);
}
