/* CRLF line endings throughout a script: the carriage returns are white space */

syscall::read:entry
/pid != 0/
{
	@reads[execname] = count();
}

END
{
	printa(@reads);
}
