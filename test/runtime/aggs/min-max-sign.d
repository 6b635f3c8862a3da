/* dtx-args: -q */
/*
 * min() of positive values and max() of negative values: the value is the
 * smallest / largest one recorded, never 0 (the CPUs that recorded nothing
 * do not count).
 */

BEGIN
{
	@min = min(3);
	@min = min(8);
	@max = max(-9);
	@max = max(-20);
	@kmin["a"] = min(5);
	@kmax["a"] = max(-5);
	exit(0);
}
