/* dtx-args: -q */
/* commit() may not follow data-recording actions [D_COMM_DREC]. */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	printf("recorded\n");
	commit(spec);
}
