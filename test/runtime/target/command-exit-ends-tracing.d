/* dtx-args: -q -c 'sleep 1' */
/*
 * A tick clause would keep tracing forever (the harness would time out);
 * the command's exit ends it, and END runs as at any other end of tracing.
 */

tick-100ms
{
	ticks++;
}

END
{
	printf("end %s\n", ticks > 0 ? "after ticks" : "before any tick");
}
