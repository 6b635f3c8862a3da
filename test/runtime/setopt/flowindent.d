/* dtx-args: -c '@TRIGGER@ getpid 1' */
/* dtx-cpu: 0 */
/*
 * setopt("flowindent") in BEGIN: BEGIN's own line is the default one (under
 * the heading dtrace chose at the first record), the syscall probes after it
 * are flow-indented.
 */

BEGIN
{
	setopt("flowindent");
}

syscall::getpid:entry,
syscall::getpid:return
/pid == $target/
{
}
