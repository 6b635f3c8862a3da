/* dtx-args: -q */
/*
 * printa() with a format, for each aggregating function: %@d formats the
 * value (avg and stddev as integers), a histogram prints in full in place
 * of its %@d, and two unkeyed aggregations join in one printa().
 */

BEGIN
{
	@c = count();
	@s = sum(-5);
	@a = avg(7);
	@a = avg(8);
	@mn = min(3);
	@mx = max(9);
	@sd = stddev(4);
	@q = quantize(3);
	printa("count %@d\n", @c);
	printa("sum %@d\n", @s);
	printa("avg %@d\n", @a);
	printa("min %@d max %@d\n", @mn, @mx);
	printa("stddev %@d\n", @sd);
	printa("quantize%@d\n", @q);
	exit(0);
}
