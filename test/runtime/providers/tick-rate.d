/* dtx-args: -q */
/* dtx-timeout: 20 */
/*
 * tick-10ms fires on schedule whatever the load, even when every CPU is
 * idle: between two tick-1s firings (one second apart) it fires about 100
 * times. The band (80..120) allows for timer slack on a busy machine.
 */

BEGIN
{
	seconds = 0;
	ticks = 0;
}

tick-10ms
{
	ticks++;
}

tick-1s
/seconds == 0/
{
	ticks = 0;
}

tick-1s
/seconds == 1/
{
	printf("%s\n", ticks >= 80 && ticks <= 120 ? "ok" : "out of band");
	exit(0);
}

tick-1s
{
	seconds++;
}
