/* dtx-args: -x unwindsize=16 -q -c '@TRIGGER@ ustack 1 sleep 20' */
/*
 * Room for one unwind row: dtx-trigger's table does not fit, dtx says so
 * once and which option to raise, and its stacks are walked by frame
 * pointers instead, which its three assembly functions keep (the outer one
 * ends the chain with a 0 %rbp).
 */
syscall::getpid:entry
/pid == $target/
{
	ustack();
}
