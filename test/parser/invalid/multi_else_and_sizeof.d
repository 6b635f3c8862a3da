/* invalid: two independent mistakes in separate clauses, an else without if and an empty sizeof() */

syscall::read:return
{
	@bytes = sum(arg0);
	else
		@errors = count();
}

syscall::write:return
{
	@bytes = sum(arg0);
}

BEGIN
{
	x = sizeof();
}
