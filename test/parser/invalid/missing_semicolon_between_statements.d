/* invalid: no ; between two statements in a clause body */

syscall::read:entry
{
	self->fd = arg0
	self->ts = timestamp;
}
