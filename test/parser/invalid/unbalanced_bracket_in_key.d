/* invalid: the aggregation key bracket is never closed */

syscall::read:entry
{
	@reads[execname = count();
}
