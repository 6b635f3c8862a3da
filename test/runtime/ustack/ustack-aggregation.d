/* dtx-args: -q -c '@TRIGGER@ ustack 3 sleep 20' */
/* @[ustack()] keys print a frame a line, as stack() keys do. */

syscall::getpid:entry
/pid == $target/
{
	@[ustack()] = count();
	@two[ustack(2)] = count();
}
