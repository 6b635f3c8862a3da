/* invalid: two independent mistakes, an inline with no initializer and an assignment with no right side */

inline int LIMIT;

syscall::read:entry
{
	self->start = timestamp;
}

syscall::read:return
{
	self->ts = ;
}
