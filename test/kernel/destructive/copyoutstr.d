/* dtx-args: -q -w -c '@TRIGGER@ open /etc/hostname 2' */
/* dtx-requires: write_user */
/*
 * copyoutstr() rewrites the path openat is given before the kernel reads
 * it: the first open gets /dev/null (the string and its NUL); the second
 * only the 4 bytes "/dev" over "/etc", so /dev/hostname, which does not
 * exist (the trigger then fails, as it must).
 */

BEGIN
{
	n = 0;
}

syscall::openat:entry
/pid == $target/
{
	self->path = arg1;
	copyoutstr(n++ == 0 ? "/dev/null" : "/devXXXX", arg1, n == 1 ? 32 : 4);
}

syscall::openat:return
/self->path/
{
	printf("%s: %s, errno %d\n", copyinstr(self->path), (int)arg1 >= 0 ? "opened" : "failed",
	    errno);
	self->path = 0;
}
