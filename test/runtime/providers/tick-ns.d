/* dtx-args: -q */
/* tick-5000000ns fires repeatedly; a counter ends the run after three firings. */

BEGIN
{
	n = 0;
}

tick-5000000ns
{
	n++;
	printf("%s %d\n", probename, n);
}

tick-5000000ns
/n == 3/
{
	exit(0);
}
