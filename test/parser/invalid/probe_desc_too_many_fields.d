/* invalid: a probe description with five fields */

syscall:vmlinux:read:entry:extra
{
	@reads = count();
}
