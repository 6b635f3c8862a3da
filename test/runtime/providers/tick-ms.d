/* dtx-args: -q */
/* tick-5ms fires repeatedly; a counter ends the run after three firings. */

BEGIN
{
	n = 0;
}

tick-5ms
{
	n++;
	printf("%s %d\n", probename, n);
}

tick-5ms
/n == 3/
{
	exit(0);
}
