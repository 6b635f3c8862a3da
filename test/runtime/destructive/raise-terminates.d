/* dtx-args: -w -c '@TRIGGER@ open /etc/hostname 5' */
/* dtx-cpu: 0 */
/*
 * raise(SIGUSR1) at the trigger's first openat: the signal, which the
 * trigger does not catch, kills it before its second open. dtx reports how
 * the command ended and exits 0.
 */

syscall::openat:entry
/pid == $target/
{
	@opens = count();
	raise(SIGUSR1);
}
