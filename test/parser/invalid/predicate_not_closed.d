/* invalid: the predicate has no closing / before the clause body */

syscall::read:entry
/pid == 1234
{
	@reads = count();
}
