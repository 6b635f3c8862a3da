/* invalid: two probe descriptions with no comma between them */

syscall::read:entry syscall::write:entry
{
	@rw[probefunc] = count();
}
