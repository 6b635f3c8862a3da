/* dtx-args: -q -x bufpolicy=fill -x bufsize=200 */
/*
 * bufpolicy=fill ends tracing once a CPU's records would exceed bufsize, as
 * exit(0) would: the first firings that fit in 200 bytes print, then END's
 * records, for which there is always room.
 */

tick-1ms
{
	printf("%d\n", i++);
}

END
{
	printf("end\n");
}
