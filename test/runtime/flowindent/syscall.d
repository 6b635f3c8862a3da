/* dtx-args: -F -c '@TRIGGER@ getpid 2' */
/* dtx-cpu: 0 */
/*
 * -F: dtrace's flow heading, and syscall entries and returns as "=>" and
 * "<=" (other providers' as "->" and "<-"), the probe's function padded to
 * 41 columns after the CPU.
 */

syscall::getpid:entry,
syscall::getpid:return
/pid == $target/
{
}
