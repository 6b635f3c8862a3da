/* dtx-args: -q */
/*
 * A clause that speculates and then faults records nothing; discarding its
 * speculation frees the ID all the same, for a later speculation().
 */

BEGIN
{
	n = 0;
	zero = 0;
}

tick-50ms
/n == 0/
{
	spec = speculation();
	printf("claimed %d\n", spec);
}

tick-50ms
/n == 0/
{
	speculate(spec);
	printf("%d\n", 1 / zero);
}

tick-50ms
/n == 0/
{
	discard(spec);
}

tick-50ms
/n == 3/
{
	printf("later, speculation() returns %d\n", speculation());
	exit(0);
}

tick-50ms
{
	n++;
}

ERROR
{
	printf("fault %d\n", arg4);
}
