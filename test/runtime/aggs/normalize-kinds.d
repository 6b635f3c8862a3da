/* dtx-args: -q */
/* normalize() divides avg() values and histogram counts as well as sums. */

BEGIN
{
	@avg = avg(10);
	@avg = avg(20);
	normalize(@avg, 5);
	@q = quantize(1);
	@q = quantize(1);
	@q = quantize(1);
	@q = quantize(1);
	normalize(@q, 2);
	exit(0);
}
