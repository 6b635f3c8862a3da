/* dtx-args: -q */
/* tick-1s fires repeatedly; a counter ends the run after three firings. */

BEGIN
{
	n = 0;
}

tick-1s
{
	n++;
	printf("%s %d\n", probename, n);
}

tick-1s
/n == 3/
{
	exit(0);
}
