/* dtx-args: -q */
/* tick-5000us fires repeatedly; a counter ends the run after three firings. */

BEGIN
{
	n = 0;
}

tick-5000us
{
	n++;
	printf("%s %d\n", probename, n);
}

tick-5000us
/n == 3/
{
	exit(0);
}
