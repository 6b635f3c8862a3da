/* dtx-args: -q -w -c '@TRIGGER@ getpid 1 open /etc/hostname 1' */
/*
 * stop() at the trigger's getpid stops it (state T) before its next call;
 * system() sees it stopped, then continues it, and it goes on to its open.
 */

syscall::getpid:entry
/pid == $target/
{
	stop();
	system("for i in 1 2 3 4 5 6 7 8 9 10; do grep -q 'T (stopped)' /proc/%d/status && break; sleep 0.1; done; grep State /proc/%d/status; kill -CONT %d", pid, pid, pid);
}

syscall::openat:entry
/pid == $target/
{
	printf("continued: openat(%s)\n", copyinstr(arg1));
}
