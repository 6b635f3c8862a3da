/* dtx-args: -q */
/* avg() (integer division), min() and max() with negative values. */

BEGIN
{
	@avg = avg(1);
	@avg = avg(2);
	@avg = avg(4);
	@min = min(5);
	@min = min(-3);
	@min = min(7);
	@max = max(5);
	@max = max(-3);
	@max = max(7);
	exit(0);
}
