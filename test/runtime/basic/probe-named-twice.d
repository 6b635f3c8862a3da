/* dtx-args: -q */
/*
 * A probe that a clause's descriptions name more than once runs the clause
 * once per naming, as in dtrace: each description is an enabling of its own.
 */

BEGIN, BEGIN, dtrace:::BEGIN
{
	n++;
}

BEGIN, BEGI*
{
	m++;
}

BEGIN
{
	printf("%d %d\n", n, m);
	exit(0);
}
