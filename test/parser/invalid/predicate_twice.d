/* invalid: a clause with two predicates */

syscall::read:entry
/pid != 0/
/uid == 0/
{
	@reads = count();
}
