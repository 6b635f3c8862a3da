/* dtx-args: -q -c '@TRIGGER@ ustack 2 sleep 20' */
/*
 * ustack() as an action: a newline, then a frame a line, indented as
 * stack() frames are, as module`function+offset. dtx-trigger's ustack
 * command makes its getpid from three functions in assembly, so every frame
 * and offset is known; it then sleeps, so that the frames are named while
 * it lives.
 */

syscall::getpid:entry
/pid == $target/
{
	ustack();
	ustack(1);
	printf("depth %d\n", ustackdepth);
}
