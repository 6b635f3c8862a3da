/* dtx-args: -q */
/* Modulo by zero is a divide-by-zero fault too. */

ERROR
{
	printf("fault %d\n", arg4);
	exit(0);
}

BEGIN
{
	x = 0;
	y = 10 % x;
}
