/* dtx-args: -q -c '@TRIGGER@ usr1-children 2' */
/*
 * A child killed by its own SIGUSR1 (no handler) handles SIGUSR1, as dtrace
 * says, though the kernel delivers the fatal signal as SIGKILL; it exits
 * CLD_KILLED.
 */

proc:::signal-handle
/ppid == $target/
{
	printf("signal-handle %d, arg0 %d\n", args[0], arg0);
}

proc:::exit
/ppid == $target/
{
	printf("exit %d\n", args[0]);
}
