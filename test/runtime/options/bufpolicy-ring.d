/* dtx-args: -q -x bufpolicy=ring -x bufsize=100 */
/*
 * bufpolicy=ring keeps each CPU's newest records within bufsize and prints
 * them when tracing ends, as dtrace's ring buffers: of 21 firings, the last
 * ones that fit in 100 bytes; exit() still ends tracing at once.
 */

tick-1ms
{
	printf("%d\n", i++);
}

tick-1ms
/i > 20/
{
	printf("exit\n");
	exit(0);
}
