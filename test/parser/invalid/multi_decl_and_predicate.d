/* invalid: two independent mistakes, a declaration without a name and a predicate with an unclosed ( */

int *;

string last;

syscall::openat:entry
/(pid == 1/
{
	@opens = count();
}

END
{
	exit(0);
}
