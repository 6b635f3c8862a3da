/* dtx-args: -q */
/* stddev(): the population standard deviation, as an integer. */

BEGIN
{
	@sd = stddev(2);
	@sd = stddev(4);
	@sd = stddev(4);
	@sd = stddev(4);
	@sd = stddev(5);
	@sd = stddev(5);
	@sd = stddev(7);
	@sd = stddev(9);
	exit(0);
}
