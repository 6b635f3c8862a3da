/* dtx-args: -q */
/*
 * After exit(), no clause of any probe but END runs: neither the next clause
 * of the same firing nor a later firing of the tick.
 */

BEGIN
{
	i = 0;
}

tick-1ms
{
	i++;
	printf("tick %d\n", i);
	exit(0);
}

tick-1ms
{
	printf("not reached\n");
}

END
{
	printf("end after %d\n", i);
}
