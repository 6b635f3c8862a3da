/* invalid: a probe description and predicate with no { } body after them */

END
{
	exit(0);
}

syscall::read:entry
/execname == "bash"/
