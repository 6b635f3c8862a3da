/* dtx-args: -q */
/* commit(0) is ignored, as is discard(0): no fault, the clause goes on. */

BEGIN
{
	commit(0);
	done = 1;
}

BEGIN
{
	discard(0);
	printf("after commit(0) and discard(0): done %d\n", done);
	exit(0);
}

ERROR
{
	printf("fault\n");
	exit(1);
}
