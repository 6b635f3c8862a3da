/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 1' */
/*
 * bcopy() writes only into the clause's scratch (alloca()): to any other
 * address, here openat's path in user memory, it is an invalid address
 * (DTRACEFLT_BADADDR, 1) and nothing is written.
 */

syscall::openat:entry
/pid == $target/
{
	self->path = arg1;
	bcopy("abc", (void *)arg1, 4);
	printf("not reached\n");
}

syscall::openat:return
/self->path/
{
	printf("the path is still %s\n", copyinstr(self->path));
}

ERROR
{
	printf("fault %d\n", arg4);
}
