/* dtx-args: -q */
/*
 * speculate(0) (what speculation() returns when none is free) drops the
 * clause's record: nothing it traces prints, whether traced before or after
 * speculate(); its other statements still run up to speculate().
 */

BEGIN
{
	before = 1;
	speculate(0);
	printf("not printed\n");
	after = 1;
}

BEGIN
{
	printf("before %d, after %d\n", before, after);
	exit(0);
}

ERROR
{
	exit(1);
}
