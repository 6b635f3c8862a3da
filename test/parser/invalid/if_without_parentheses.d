/* invalid: the condition of if is not in parentheses */

syscall::read:return
{
	if arg0 > 0 {
		@bytes = sum(arg0);
	}
}
