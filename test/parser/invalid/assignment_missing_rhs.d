/* invalid: an assignment operator with nothing on its right side */

syscall::read:entry
{
	self->ts = ;
}
