/* dtx-args: -q */
/* After exit() in BEGIN, the later BEGIN clauses do not run; END does. */

BEGIN
{
	printf("first\n");
	exit(0);
}

BEGIN
{
	printf("not reached\n");
}

END
{
	printf("end\n");
}
