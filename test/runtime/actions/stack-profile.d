/* dtx-args: -q -o /dev/stderr */
/*
 * stack() in a profile probe that interrupted the kernel: a newline, then
 * one frame per line, indented, as module`symbol+offset. The output goes to
 * stderr (-o) so that the frame, which varies, can be matched by a regular
 * expression; stdout stays empty.
 */

BEGIN
{
	done = 0;
}

profile-997
/arg0 != 0 && !done/
{
	done = 1;
	stack(1);
	exit(0);
}

tick-5s
{
	printf("no kernel-mode profile firing\n");
	exit(1);
}
