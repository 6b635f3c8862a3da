/* dtx-args: -q -w -c '@TRIGGER@ copyout-target 3' */
/* dtx-requires: write_user */
/*
 * copyout(buffer, address, size) writes size bytes of the program's memory
 * into the current process: the trigger passes a buffer holding
 * "0123456789abcdefghijklmnopqrstuv" to write() three times and prints it
 * after each. The bytes come from scratch memory (alloca()), from a string
 * (its first bytes, no NUL) and from an integer's bytes, little-endian.
 */

syscall::write:entry
/pid == $target && arg0 == 100 && ++n == 1/
{
	this->bytes = (char *)alloca(4);
	this->bytes[0] = 'D';
	this->bytes[1] = 'T';
	this->bytes[2] = 'X';
	this->bytes[3] = '\0';
	copyout(this->bytes, arg1 + 2, 4);
}

syscall::write:entry
/pid == $target && arg0 == 100 && n == 2/
{
	copyout("copyout", arg1 + 26, 6);
}

syscall::write:entry
/pid == $target && arg0 == 100 && n == 3/
{
	this->word = (uint32_t *)alloca(4);
	*this->word = 0x2a2b2c2d;
	copyout(this->word, arg1, 4);
}
