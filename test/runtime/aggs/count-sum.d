/* dtx-args: -q */
/*
 * count() and sum() over tick firings, printed at exit: a newline, then each
 * aggregation in the order it first appears, with no line between them.
 */

BEGIN
{
	i = 0;
}

tick-1ms
/i < 10/
{
	@calls = count();
	@total = sum(i);
	@negative = sum(-i);
	i++;
}

tick-1ms
/i == 10/
{
	exit(0);
}
