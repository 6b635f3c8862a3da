/* dtx-args: -q */
/* quantize(): power-of-two buckets, from one empty bucket below the lowest to one above the highest. */

BEGIN
{
	@q = quantize(0);
	@q = quantize(1);
	@q = quantize(2);
	@q = quantize(3);
	@q = quantize(5);
	@q = quantize(5);
	@q = quantize(-1);
	@q = quantize(1000);
	exit(0);
}
