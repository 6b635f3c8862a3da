/* dtx-args: -q */
/*
 * Rows sort by the value as printed: avg() by the average (not the sum),
 * stddev() by the standard deviation, quantize() by the sum of bucket
 * value times count (not by the count).
 */

BEGIN
{
	@a["x"] = avg(10);
	@a["x"] = avg(10);
	@a["y"] = avg(15);
	@s["p"] = stddev(0);
	@s["p"] = stddev(10);
	@s["q"] = stddev(100);
	@s["q"] = stddev(100);
	@q["a"] = quantize(100);
	@q["b"] = quantize(1, 10);
	printa(@a);
	printa(@s);
	printa("%s\n", @q);
	exit(0);
}
