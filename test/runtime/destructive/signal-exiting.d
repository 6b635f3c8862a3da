/* dtx-args: -q -w -c '@TRIGGER@ getpid 1' */
/*
 * The kernel refuses to signal a process that is exiting (proc:::exit
 * fires after it has begun to): raise() and stop() say so once each, with
 * the pid and why, and stop() leaves nothing stopped to report at the end.
 */

proc:::exit
/pid == $target/
{
	raise(SIGUSR1);
	stop();
}
