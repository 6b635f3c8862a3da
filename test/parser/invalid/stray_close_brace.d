/* invalid: a } at the outer scope with no { open */

BEGIN
{
	exit(0);
}
}

END
{
	trace(1);
}
