/* dtx-args: -q */
/*
 * commit() of an ID above nspec is an illegal operation (DTRACEFLT_ILLOP, 3):
 * the clause stops there, the ERROR probe fires, then the next clause runs.
 */
#pragma D option nspec=8

BEGIN
{
	commit(9);
	reached = 1;
}

BEGIN
{
	printf("the next clause runs; the statement after commit() ran: %d\n", reached);
	exit(0);
}

ERROR
{
	printf("ERROR: fault %d\n", arg4);
}
