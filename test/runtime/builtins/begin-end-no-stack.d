/* dtx-args: -q */
/*
 * BEGIN and END run in dtrace's own process, not in the kernel: stackdepth
 * is 0 and stack() has no frames there.
 */

BEGIN
{
	printf("begin %d\n", stackdepth);
	stack();
	printf("[begin]\n");
	exit(0);
}

END
{
	printf("end %d\n", stackdepth);
	stack();
	printf("[end]\n");
}
