/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 1' */
/*
 * copyin() copies n bytes of user memory into scratch: its bytes read
 * through a char pointer, and as a string (its 14 bytes include the NUL).
 */

syscall::openat:entry
/pid == $target/
{
	this->p = (char *)copyin(arg1, 5);
	printf("%c%c%c%c%c\n", this->p[0], this->p[1], this->p[2], this->p[3], this->p[4]);
	printf("%s\n", stringof(copyin(arg1, 14)));
	this->u = (unsigned char *)copyin(arg1 + 5, 4);
	printf("%d %d %d %d\n", this->u[0], this->u[1], this->u[2], this->u[3]);
}
