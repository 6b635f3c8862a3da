/* dtx-args: -q */
/*
 * quantize()'s optional increment, negative increments included: a histogram
 * with negative counts draws its bars to the left of a centre line.
 */

BEGIN
{
	@q = quantize(1, 3);
	@q = quantize(2, -1);
	@q = quantize(8, 2);
	@n = quantize(5, -2);
	@n = quantize(20, -1);
	exit(0);
}
