/* dtx-args: -q */
/* Without an ERROR clause the fault is only reported; the next clause still runs. */

BEGIN
{
	x = 0;
	y = 10 / x;
	printf("not reached\n");
}

BEGIN
{
	printf("next clause\n");
	exit(0);
}
