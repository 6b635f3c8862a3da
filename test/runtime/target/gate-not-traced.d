/* dtx-args: -q -c '@TRIGGER@ getpid 1' */
/*
 * The command waits for tracing to start without any of its waiting being
 * traced: the first system call of $target seen is its execve(), already
 * under the command's name (not a read() that let it go, not an execve() by
 * "dtx"), and its exec is seen whole: proc:::exec-success, then execve()'s
 * return.
 */

syscall:::entry, syscall:::return
/pid == $target && !seen/
{
	printf("first: %s:%s by %s\n", probefunc, probename, execname);
	seen = 1;
}

syscall:::entry, syscall:::return
/pid == $target && execname == "dtx"/
{
	printf("by dtx: %s:%s\n", probefunc, probename);
}

syscall::read:return
/pid == $target/
{
	printf("read returned %d\n", (int)arg0);
}

proc:::exec-success
/pid == $target/
{
	printf("exec-success of %s\n", execname);
}

syscall::execve:return
/pid == $target/
{
	printf("execve returned %d in %s\n", (int)arg0, execname);
}
