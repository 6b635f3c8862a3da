/* dtx-args: -q */
/* A keyed histogram at exit: the key on its own line, then the histogram and a blank line. */

BEGIN
{
	@q["k"] = quantize(1);
	@q["k"] = quantize(2);
	@q["k"] = quantize(2);
	exit(0);
}
