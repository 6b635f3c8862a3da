/* dtx-args: -q */
/*
 * quantize() with negative increments: buckets whose counts are negative
 * and others positive draw half bars on each side of a centre line
 * (dt_print_quantline).
 */

BEGIN
{
	@q = quantize(1, -1);
	@q = quantize(2, -3);
	@q = quantize(8, 2);
	exit(0);
}
