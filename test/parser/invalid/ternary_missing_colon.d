/* invalid: ?: without its : and third operand */

syscall::read:return
{
	size = arg0 > 0 ? arg0;
}
