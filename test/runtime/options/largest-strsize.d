/* dtx-args: -q -x strsize=16367 */
/*
 * The largest strsize: a string fills a record whole, and aggregation keys,
 * associative arrays and variables of that size load.
 */

BEGIN
{
	trace(execname);
}

BEGIN
{
	@counts[execname] = count();
}

BEGIN
{
	names[execname] = 1;
}

BEGIN
{
	name = execname;
}

BEGIN
{
	exit(0);
}

END
{
	printf("\n%s\n", name);
}
