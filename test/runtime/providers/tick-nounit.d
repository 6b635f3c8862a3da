/* dtx-args: -q */
/* tick-200 (no unit: per second, like hz) fires repeatedly; a counter ends the run after three firings. */

BEGIN
{
	n = 0;
}

tick-200
{
	n++;
	printf("%s %d\n", probename, n);
}

tick-200
/n == 3/
{
	exit(0);
}
