/* dtx-args: -q */
/* The ERROR clause runs at the fault, before the other clauses of the same probe. */

ERROR
{
	printf("error fired\n");
}

BEGIN
{
	x = 0;
	x = x / x;
}

BEGIN
{
	printf("clause executed\n");
	exit(0);
}
