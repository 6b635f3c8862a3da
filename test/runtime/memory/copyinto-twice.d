/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 1' */
/* Two copyinto() calls fill one alloca() buffer at two offsets. */

syscall::openat:entry
/pid == $target/
{
	this->buf = (char *)alloca(16);
	copyinto(arg1, 4, this->buf);
	copyinto(arg1 + 5, 8, this->buf + 4);
	printf("%s\n", stringof(this->buf));
}
