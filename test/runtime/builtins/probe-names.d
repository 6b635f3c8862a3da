/* dtx-args: -q */
/* probeprov, probemod, probefunc, probename and id in BEGIN, tick and END. */

BEGIN
{
	printf("%s:%s:%s:%s %d\n", probeprov, probemod, probefunc, probename, id);
}

tick-10ms
{
	printf("%s:%s:%s:%s\n", probeprov, probemod, probefunc, probename);
	exit(0);
}

END
{
	printf("%s:%s:%s:%s %d\n", probeprov, probemod, probefunc, probename, id);
}
