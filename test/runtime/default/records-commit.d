/* dtx-cpu: 0 */
/*
 * A clause with only commit() records for the consumer, but dtrace shows no
 * probe line for it; the committed record shows its own.
 */

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("speculated");
}

BEGIN
{
	commit(s);
}

BEGIN
{
	exit(0);
}
