/* invalid: two independent lexical mistakes, a bad octal digit and an empty character constant */

BEGIN
{
	mode = 0759;
}

syscall::write:entry
{
	sep = '';
}

END
{
	exit(0);
}
