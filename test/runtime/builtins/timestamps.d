/* dtx-args: -q */
/*
 * timestamp increases from one firing to the next (it is the same in all
 * clauses of one firing); ten tick-10ms firings take at least 50 ms;
 * walltimestamp is a time between 2020 and 2100.
 */

BEGIN
{
	first = timestamp;
	last = timestamp;
	n = 0;
	ok = 1;
}

tick-10ms
{
	ok = ok && timestamp > last;
	last = timestamp;
	n++;
}

tick-10ms
/n == 10/
{
	printf("%d %d\n", ok, last - first >= 50000000);
	printf("%d\n", walltimestamp > 1577836800000000000 && walltimestamp < 4102444800000000000);
	exit(0);
}
