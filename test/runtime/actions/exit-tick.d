/* dtx-args: -q */
/* exit() from a tick firing: its value is dtx's exit status. */

BEGIN
{
	n = 0;
}

tick-10ms
{
	n++;
}

tick-10ms
/n == 3/
{
	printf("exiting after %d ticks\n", n);
	exit(7);
}
