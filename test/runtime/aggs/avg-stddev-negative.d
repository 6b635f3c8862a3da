/* dtx-args: -q */
/* avg() truncates toward zero; stddev() of negative values. */

BEGIN
{
	@avg = avg(-3);
	@avg = avg(-4);
	@sd1 = stddev(-2);
	@sd1 = stddev(2);
	@sd2 = stddev(-1);
	@sd2 = stddev(-3);
	@sum = sum(-9223372036854775807);
	@sum = sum(-1);
	exit(0);
}
