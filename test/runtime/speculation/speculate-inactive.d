/* dtx-args: -q */
/*
 * speculate() of an ID that speculation() has not handed out (2 here), or
 * of one above nspec (9), drops the clause's record without a fault, as in
 * dtrace-utils; the ID speculation() hands out still works.
 */
#pragma D option nspec=2

BEGIN
{
	speculate(2);
	printf("not printed: 2 is not active\n");
}

BEGIN
{
	speculate(9);
	printf("not printed: 9 is beyond nspec\n");
}

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	printf("speculative record of %d\n", spec);
}

BEGIN
{
	commit(spec);
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault\n");
	exit(1);
}
