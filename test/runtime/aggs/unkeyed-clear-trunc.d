/* dtx-args: -q */
/*
 * Aggregations without keys: clear() zeroes the value but keeps it (printed
 * as 0), trunc() removes it until it records again, trunc(@, 1) keeps it;
 * values recorded afterwards count from zero. At exit, one that recorded
 * only zeros prints 0 and those that never recorded print nothing.
 */

BEGIN
{
	n = 0;
}

tick-10ms
/n == 0/
{
	@cleared = sum(5);
	@truncated = count();
	@kept = max(-3);
	@zeros = sum(0);
	clear(@cleared);
	trunc(@truncated);
	trunc(@kept, 1);
	printa(@cleared);
	printa(@truncated);
	printa(@kept);
}

tick-10ms
/n == 1/
{
	@cleared = sum(2);
	@truncated = count();
	printa(@cleared);
	printa(@truncated);
	exit(0);
}

tick-10ms
/n > 100/
{
	@never = count();
	@nomin = min(1);
	@noquantize = quantize(1);
}

tick-10ms
{
	n++;
}
