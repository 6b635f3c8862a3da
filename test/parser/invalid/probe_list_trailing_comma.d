/* invalid: a comma after the last probe description of a list */

syscall::read:entry,
{
	@reads = count();
}
