/* dtx-args: -q -c '@TRIGGER@ write 7' */
/* The trigger writes one byte to descriptor 100, 7 times. */
syscall::write:entry
/pid == $target/
{
	@[arg0, arg2] = count();
}
