/* dtx-args: -q */
/*
 * A global's first assignment may be an increment in a later clause's
 * predicate, as in the DTrace Guide's `tick-1sec /i++ >= 10/`: an earlier
 * clause reads it as 0 until then.
 */

tick-10ms
{
	printf("%d ", n);
}

tick-10ms
/++n == 3/
{
	printf("\n");
	exit(0);
}
