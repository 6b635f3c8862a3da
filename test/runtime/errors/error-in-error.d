/* dtx-args: -q */
/*
 * A fault in an ERROR clause is reported like any other, and ends that
 * clause only: ERROR does not fire again, and the next ERROR clause runs.
 */

BEGIN
{
	x = *(int *)8;
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("first ERROR clause\n");
	y = *(int *)16;
}

ERROR
{
	printf("second ERROR clause, fault %d\n", arg4);
}
