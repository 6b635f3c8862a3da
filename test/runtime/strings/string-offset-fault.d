/* dtx-args: -q */
/* A negative offset into a string is an address before it: a fault. */

BEGIN
{
	n = -1;
	s = "hello";
	printf("%s\n", s + n);
}

ERROR
{
	printf("ERROR, fault %d\n", arg4);
	exit(0);
}
