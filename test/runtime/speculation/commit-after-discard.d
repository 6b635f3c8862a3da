/* dtx-args: -q */
/*
 * commit() after discard() of the same speculation is ignored: its records
 * are gone. discard() after commit() is ignored too: they print.
 */
#pragma D option nspec=2

BEGIN
{
	a = speculation();
	b = speculation();
}

BEGIN
{
	speculate(a);
	printf("a: discarded, then committed: not printed\n");
}

BEGIN
{
	speculate(b);
	printf("b: committed, then discarded: printed\n");
}

BEGIN
{
	discard(a);
	commit(a);
	commit(b);
	discard(b);
}

BEGIN
{
	exit(0);
}

ERROR
{
	exit(1);
}
