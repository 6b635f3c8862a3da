/* dtx-args: -q */
/*
 * tick-N fires on schedule without any other probe in the script, even when
 * every CPU is idle.
 */

tick-10ms
{
	n++;
}

tick-10ms
/n == 3/
{
	printf("three ticks\n");
	exit(0);
}
