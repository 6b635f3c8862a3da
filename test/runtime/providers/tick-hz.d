/* dtx-args: -q */
/* tick-200hz fires repeatedly; a counter ends the run after three firings. */

BEGIN
{
	n = 0;
}

tick-200hz
{
	n++;
	printf("%s %d\n", probename, n);
}

tick-200hz
/n == 3/
{
	exit(0);
}
