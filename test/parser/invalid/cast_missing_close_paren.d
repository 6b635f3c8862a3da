/* invalid: the cast's type name is not closed by ) */

syscall::read:entry
{
	this->fd = (int arg0;
}
