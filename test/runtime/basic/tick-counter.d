/* dtx-args: -q */
/* A tick probe with a global counter and a predicate that ends the run. */

BEGIN
{
	i = 0;
}

tick-1ms
/i < 5/
{
	i++;
	printf("tick %d\n", i);
}

tick-1ms
/i == 5/
{
	exit(0);
}
