/* invalid: a [ opened inside the predicate is not closed before the closing / */

syscall::read:entry
/seen[pid == 0/
{
	@reads = count();
}
