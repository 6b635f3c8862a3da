/* dtx-args: -q -w -c '@TRIGGER@ getpid 1 sleep 10000' */
/*
 * stop() of the -c command, which dtx kills when it exits (as dtrace kills
 * a process it created): it is not left stopped, and nothing is said of it.
 */

syscall::getpid:entry
/pid == $target/
{
	stop();
	exit(0);
}
