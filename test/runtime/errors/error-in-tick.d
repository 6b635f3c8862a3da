/* dtx-args: -q */
/* Faults in tick firings: each one fires ERROR; tracing goes on. */

BEGIN
{
	n = 0;
}

tick-1ms
{
	n++;
	z = 100 / (n - n);
}

ERROR
{
	@faults = count();
}

tick-1ms
/n == 3/
{
	exit(0);
}
