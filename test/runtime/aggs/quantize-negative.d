/* dtx-args: -q */
/* quantize() of negative values: buckets -1, -2, -4, ... below the zero bucket. */

BEGIN
{
	@q = quantize(-1);
	@q = quantize(-2);
	@q = quantize(-3);
	@q = quantize(-100);
	@q = quantize(0);
	@q = quantize(4);
	exit(0);
}
