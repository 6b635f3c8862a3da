/* dtx-args: -q */
/*
 * A fault aborts only its own clause: of three clauses of one probe, the
 * first and third fault and the second runs; ERROR fires once per fault.
 */

BEGIN
{
	n = 0;
	zero = 0;
}

tick-10ms
/n < 2/
{
	n++;
	x = n / zero;
}

tick-10ms
/n < 3/
{
	printf("tick %d\n", n);
}

tick-10ms
/n < 3/
{
	x = n % zero;
}

tick-10ms
/n == 2/
{
	n++;
}

tick-10ms
/n == 3/
{
	exit(0);
}

ERROR
{
	@faults = count();
}
