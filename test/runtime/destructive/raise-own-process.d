/* dtx-args: -q -w */
/*
 * raise() where a clause fires in dtx's own process is not delivered: BEGIN
 * runs there, and so do probes of dtx's own system calls (its write of
 * BEGIN's output), where a SIGKILL would end dtx (status 137) with no word
 * said. dtx warns once per call, whatever the signal, and goes on.
 */

BEGIN
{
	raise(SIGKILL);
	raise(SIGKILL);
	printf("BEGIN went on\n");
}

syscall::write:entry,
syscall::writev:entry
/pid == $pid/
{
	raise(SIGKILL);
	exit(0);
}
