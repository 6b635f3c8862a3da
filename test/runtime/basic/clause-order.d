/* dtx-args: -q */
/* Clauses of one probe run in script order; predicates select them. */

BEGIN
{
	printf("one\n");
}

BEGIN
/0/
{
	printf("never\n");
}

BEGIN
/1 + 1 == 2/
{
	printf("two\n");
}

BEGIN
{
	printf("three\n");
	exit(0);
}
