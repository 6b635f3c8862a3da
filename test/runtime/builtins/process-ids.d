/* dtx-args: -q */
/*
 * In BEGIN (which fires in dtx itself): pid is $pid, tid is the pid (the
 * main thread), execname is "dtx", uid and gid are 0 (root), ppid is not 0.
 */

BEGIN
{
	printf("%d %d %d\n", pid == $pid, tid == pid, execname == "dtx");
	printf("%d %d %d\n", uid, gid, ppid != 0);
	exit(0);
}
