/* invalid: a probe description written as a string literal */

"syscall::read:entry"
{
	@reads = count();
}
