/* dtx-cpu: 0 */
/*
 * Without -q, a committed record prints with its own probe line, when the
 * commit is consumed. A clause that only commits or discards, or only
 * assigns variables, records nothing (dtrace-utils): no probe line of its own.
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
	printf("kept");
}

BEGIN
{
	speculate(b);
	printf("thrown away");
}

BEGIN
{
	trace("not speculative");
}

BEGIN
{
	discard(b);
}

BEGIN
{
	commit(a);
}

BEGIN
{
	exit(0);
}
