/* dtx-args: -q */
/* A speculation neither committed nor discarded when tracing ends never prints. */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	printf("never printed\n");
}

BEGIN
{
	printf("exiting\n");
	exit(0);
}
