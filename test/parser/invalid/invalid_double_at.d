/* invalid: @@ is not an aggregation name */

syscall::read:entry
{
	@@reads = count();
}
