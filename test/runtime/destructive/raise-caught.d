/* dtx-args: -w -c '@TRIGGER@ catch-usr1 3' */
/* dtx-cpu: 0 */
/*
 * raise() signals the thread that fired the probe: the trigger's handler
 * counts a SIGUSR1 for each of its three getpid calls and exits with that
 * count, which dtx reports.
 */

syscall::getpid:entry
/pid == $target/
{
	raise(SIGUSR1);
}
