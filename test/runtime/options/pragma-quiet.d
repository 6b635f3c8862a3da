/* #pragma D option quiet: no header, no probe lines. */

#pragma D option quiet

BEGIN
{
	printf("quiet\n");
	exit(0);
}
