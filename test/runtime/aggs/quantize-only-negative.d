/* dtx-args: -q */
/* Only negative counts: full bars left of the line. */

BEGIN
{
	@q = quantize(4, -2);
	@q = quantize(5, -1);
	@q = quantize(64, -1);
	exit(0);
}
