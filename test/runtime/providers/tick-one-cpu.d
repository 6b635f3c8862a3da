/* dtx-args: -q */
/*
 * A tick probe fires on one CPU only: two clauses of the same tick see the
 * same cpu in each firing, and the count over 20 firings is 20 (not 20 per
 * CPU).
 */

BEGIN
{
	n = 0;
	same = 1;
}

tick-5ms
{
	this->cpu = cpu;
	@firings = count();
	n++;
}

tick-5ms
{
	same = same && this->cpu == cpu;
}

tick-5ms
/n == 20/
{
	printf("%d\n", same);
	exit(0);
}
