/* dtx-args: -q -w -c '@TRIGGER@ open /etc/hostname 3' */
/* dtx-requires: write_user */
/*
 * copyout() writes n bytes of the program's memory into the process: to an
 * unmapped address it is an invalid address (DTRACEFLT_BADADDR, 1) and the
 * path stays; then a string constant with its NUL (/dev/null); then bytes
 * copied in from the path itself ("hos" over "etc": /hos/hostname, which
 * does not exist).
 */

BEGIN
{
	n = 0;
}

syscall::openat:entry
/pid == $target/
{
	self->path = arg1;
	n++;
}

syscall::openat:entry
/pid == $target && n == 1/
{
	copyout("/dev/null", 8, 10);
}

syscall::openat:entry
/pid == $target && n == 2/
{
	copyout("/dev/null", arg1, 10);
}

syscall::openat:entry
/pid == $target && n == 3/
{
	copyout(copyin(arg1 + 5, 3), arg1 + 1, 3);
}

syscall::openat:return
/self->path/
{
	printf("%s: %s, errno %d\n", copyinstr(self->path), (int)arg1 >= 0 ? "opened" : "failed",
	    errno);
	self->path = 0;
}

ERROR
{
	printf("fault %d at 0x%x\n", arg4, arg5);
}
