/* dtx-args: -q -c '@TRIGGER@ signal-self 3' */
/*
 * signal-send and signal-handle for the SIGUSR1s the trigger sends itself:
 * who sends which signal to whom, and the handler that takes it.
 */

proc:::signal-send
/args[1]->pr_pid == $target/
{
	printf("signal-send %d to %s, thread %d of process %d: %s\n", args[2],
	    args[1]->pr_fname, args[0]->pr_lwpid == $target, args[1]->pr_pid == $target,
	    execname);
}

proc:::signal-handle
/pid == $target/
{
	printf("signal-handle %d, si_signo %d, handler set: %d\n", args[0],
	    args[1]->si_signo, args[2] != 0);
}

proc:::exit
/pid == $target/
{
	printf("exit %d, curpsinfo is the process: %d\n", args[0], curpsinfo->pr_pid == $target);
}
