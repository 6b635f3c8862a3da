/* invalid: an else with no if before it */

syscall::read:return
{
	@bytes = sum(arg0);
	else
		@errors = count();
}
