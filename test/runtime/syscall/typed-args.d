/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 1 fail-open 1' */
/* args[] typed from the tracefs format files: openat(int dfd, const char *
   filename, int flags, umode_t mode) and its long return value; dfd is
   AT_FDCWD (-100), which only a signed 32-bit type prints as such. */
syscall::openat:entry
/pid == $target/
{
	printf("dfd=%d path=%s flags=%d mode=%d\n", args[0], copyinstr((uintptr_t)args[1]),
	    args[2], args[3]);
}

syscall::openat:return
/pid == $target/
{
	printf("ret=%d size=%d\n", args[0], sizeof(args[0]));
}
