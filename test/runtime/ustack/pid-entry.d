/* dtx-args: -q -c '@TRIGGER@ ustack 2 sleep 20' */
/*
 * At a pid entry probe the function has not made its frame yet: ustack()
 * still names its caller (the return address is on top of the stack), the
 * function itself without an offset, and ustackdepth counts the frames
 * printed.
 */

pid$target::trigger_ustack_inner:entry
{
	ustack();
	printf("depth %d\n", ustackdepth);
}
