/* dtx-args: -q -w */
/*
 * freopen() sends the output to another file, appended to, from the next
 * record on: each tick's line goes into its own file, named by printf()'s
 * conversions; freopen("") sends it back to stdout. A command run by
 * system() writes where the output goes; the last shows the files.
 */

BEGIN
{
	system("rm -f /tmp/dtx-runtime-freopen.*");
	system("echo before > /tmp/dtx-runtime-freopen.1");
}

tick-10ms
{
	freopen("/tmp/dtx-runtime-freopen.%d", n);
	printf("tick %d\n", n);
	system("echo command %d", n);
}

tick-10ms
/++n == 3/
{
	freopen("");
	printf("back to stdout after %d\n", n);
	system("head /tmp/dtx-runtime-freopen.*; rm /tmp/dtx-runtime-freopen.*");
	exit(0);
}
