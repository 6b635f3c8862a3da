/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 1 fail-open 3' */
/* A failing call returns -errno: arg0 == arg1 == -2 and errno == ENOENT (2);
   a succeeding one leaves errno 0. */
syscall::openat:return
/pid == $target/
{
	printf("%s:%s arg0=%d arg1=%d errno=%d\n", probefunc, probename, arg0, arg1, errno);
}
