/* dtx-args: -q */
/* exit(255) is the largest exit status; END still runs. */

BEGIN
{
	exit(255);
}

END
{
	printf("end\n");
}
