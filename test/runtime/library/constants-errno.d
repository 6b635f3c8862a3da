/* dtx-args: -q */
/* errno.d: Linux's error numbers, without -C. */

BEGIN
{
	printf("%d %d %d %d %d\n", EPERM, ENOENT, EAGAIN, EINVAL, ERANGE);
	printf("%d %d %d %d\n", EDEADLK, ENOSYS, ETIMEDOUT, EHWPOISON);
	printf("%d %d %d\n", EWOULDBLOCK, EDEADLOCK, ENOTSUP);
	this->err = 2;
	printf("%s\n", this->err == ENOENT ? "ENOENT" : "other");
	exit(0);
}
