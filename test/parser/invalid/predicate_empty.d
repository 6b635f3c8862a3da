/* invalid: the predicate between the slashes is empty */

syscall::read:entry
/ /
{
	@reads = count();
}
