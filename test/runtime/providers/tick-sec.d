/* dtx-args: -q */
/* tick-1sec fires repeatedly; a counter ends the run after three firings. */

BEGIN
{
	n = 0;
}

tick-1sec
{
	n++;
	printf("%s %d\n", probename, n);
}

tick-1sec
/n == 3/
{
	exit(0);
}
