/* several clauses for the same probe, run in order, sharing thread-local and clause-local state */

syscall::read:entry
{
	self->fd = arg0;
	this->first = 1;
}

syscall::read:entry
/self->fd == 0/
{
	@stdin_reads[execname] = count();
}

syscall::read:entry
/self->fd != 0/
{
	@other_reads[execname] = count();
}

syscall::read:entry
{
	self->fd = 0;
}

syscall::read:return
{
	@bytes = sum(arg0 > 0 ? arg0 : 0);
}

syscall::read:return
/arg0 < 0/
{
	@failed[errno] = count();
}
