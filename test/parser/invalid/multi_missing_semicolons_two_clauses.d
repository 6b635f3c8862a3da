/* invalid: two independent mistakes, a missing ; in the first clause and another in the third */

syscall::read:entry
{
	self->fd = arg0
	self->ts = timestamp;
}

syscall::read:return
/self->ts/
{
	@lat = quantize(timestamp - self->ts);
	self->ts = 0;
}

syscall::write:entry
{
	@bytes = sum(arg2)
	@calls = count();
}
