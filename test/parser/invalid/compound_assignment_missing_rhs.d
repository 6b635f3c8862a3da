/* invalid: a compound assignment operator with nothing on its right side */

syscall::write:entry
{
	total += ;
}
