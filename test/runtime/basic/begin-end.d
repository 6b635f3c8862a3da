/* dtx-args: -q */
/* BEGIN fires first, END after exit(), whatever their order in the script. */

END
{
	printf("end\n");
}

BEGIN
{
	printf("begin\n");
	exit(0);
}
