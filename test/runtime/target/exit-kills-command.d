/* dtx-args: -q -c 'sleep 30' */
/*
 * exit() ends tracing while the command runs: dtx kills the command it
 * started (as dtrace does) instead of waiting 30 s for it.
 */

tick-200ms
{
	exit(4);
}

END
{
	printf("end\n");
}
