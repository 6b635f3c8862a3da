/* dtx-args: -q */
/*
 * Every destructive action and subroutine is refused without -w, each with
 * its own diagnostic (D_ACT_DESTRUCTIVE), and the exit status is 1.
 */

syscall::openat:entry
{
	system("echo %d", pid);
	raise(SIGUSR1);
	stop();
	chill(1000);
	copyout("abc", arg1, 4);
	copyoutstr("abc", arg1, 4);
}
