/* dtx-args: -q */
/*
 * commit() and discard() of an ID speculation() never returned are ignored,
 * and do not spoil the ID: speculation() still hands it out afterwards.
 */
#pragma D option nspec=2

BEGIN
{
	commit(1);
	discard(2);
}

BEGIN
{
	printf("this is seen\n");
	printf("speculation() then returns %d\n", speculation());
	exit(0);
}

ERROR
{
	exit(1);
}
