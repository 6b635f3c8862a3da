/* dtx-args: -q */
/*
 * clear() zeroes the values but keeps the keys; values added in a later
 * firing count from zero. (The first printa() makes sure the consumer has
 * seen both keys before the clear.)
 */

BEGIN
{
	n = 0;
}

tick-10ms
/n == 0/
{
	@a["x"] = sum(5);
	@a["y"] = sum(1);
	printa(@a);
}

tick-10ms
/n == 1/
{
	clear(@a);
}

tick-10ms
/n == 2/
{
	@a["x"] = sum(7);
	printa(@a);
	exit(0);
}

tick-10ms
{
	n++;
}
