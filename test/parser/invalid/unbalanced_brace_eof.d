/* invalid: the clause body is never closed before the end of the file */

syscall::read:entry
{
	@reads[execname] = count();
	self->fd = arg0;
