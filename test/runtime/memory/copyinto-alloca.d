/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 1' */
/*
 * copyinto() copies user memory into scratch the clause got from alloca(),
 * which starts zeroed: the bytes after the copy stay 0.
 */

syscall::openat:entry
/pid == $target/
{
	this->buf = (char *)alloca(20);
	copyinto(arg1, 4, this->buf);
	printf("%s\n", stringof(this->buf));
	tracemem(this->buf, 20);
}
