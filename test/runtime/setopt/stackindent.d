/* dtx-args: -q -x stackindent=4 -c '@TRIGGER@ ustack 2 sleep 20' */
/*
 * -x stackindent=4 indents stack frames by 4 instead of 14; setopt() changes
 * it for the next firing.
 */

syscall::getpid:entry
/pid == $target/
{
	ustack(1);
	setopt("stackindent", "0");
}
