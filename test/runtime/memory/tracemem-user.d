/* dtx-args: -q -c '@TRIGGER@ fail-open 1' */
/*
 * tracemem() of user memory copied in: openat's 25-byte path over two rows
 * of dtrace's dump (16 bytes each, '.' for what is not printable), then
 * with a third argument, the bytes shown as computed in the probe.
 */

syscall::openat:entry
/pid == $target/
{
	this->path = copyin(arg1, 25);
	tracemem(this->path, 25);
	tracemem(this->path, 25, 16);
	tracemem(this->path, 25, strlen(copyinstr(arg1)) - 4);
	tracemem(this->path, 25, 100);
	printf("\n");
}
