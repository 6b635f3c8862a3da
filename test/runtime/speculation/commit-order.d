/* dtx-args: -q */
/*
 * Three speculations committed in one clause, in the reverse order of their
 * creation: each one's records come out when its commit() is consumed.
 */
#pragma D option nspec=3

BEGIN
{
	i = speculation();
	j = speculation();
	k = speculation();
	printf("speculation IDs: %d %d %d\n", i, j, k);
}

BEGIN
{
	speculate(i);
	printf("speculating on %d\n", i);
}

BEGIN
{
	speculate(j);
	printf("speculating on %d\n", j);
}

BEGIN
{
	speculate(k);
	printf("speculating on %d\n", k);
}

BEGIN
{
	commit(k);
	commit(j);
	commit(i);
}

BEGIN
{
	exit(0);
}

ERROR
{
	exit(1);
}
