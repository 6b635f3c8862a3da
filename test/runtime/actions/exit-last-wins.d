/* dtx-args: -q */
/*
 * Two exit()s: BEGIN's asks for 3, END's for 0. The last one executed gives
 * the exit status, as in dtrace.
 */

BEGIN
{
	printf("begin\n");
	exit(3);
}

END
{
	printf("end\n");
	exit(0);
}
