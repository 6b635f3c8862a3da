/* dtx-args: -q -c true */
/*
 * With -c, BEGIN runs before the command and END after it has exited; its
 * exit ends tracing as exit(0) would. Quiet mode keeps the exit notice off
 * stderr, as dtrace's notices are.
 */

END
{
	printf("end\n");
}

BEGIN
{
	printf("begin\n");
}
