/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 1' */
/*
 * tracemem(addr, size, dsize): dsize 0 shows nothing, not even the heading;
 * a negative dsize (of a signed type) shows all size bytes, as in
 * dtrace-utils' tracemem tests.
 */

syscall::openat:entry
/pid == $target/
{
	this->path = copyin(arg1, 14);
	printf("0:");
	tracemem(this->path, 14, 0);
	printf("\n-1:");
	tracemem(this->path, 14, -1);
	printf("\n");
}
