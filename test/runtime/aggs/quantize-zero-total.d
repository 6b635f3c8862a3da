/* dtx-args: -q */
/*
 * Increments that cancel out leave every bucket at 0: dtrace then shows the
 * buckets around zero (-1, 0, 1) with empty bars.
 */

BEGIN
{
	@q = quantize(8, 1);
	@q = quantize(8, -1);
	exit(0);
}
