/* #pragma D option settings with size suffixes and rates. */

#pragma D option quiet
#pragma D option bufsize=64k
#pragma D option aggsize=256k
#pragma D option dynvarsize=1m
#pragma D option switchrate=100hz
#pragma D option aggrate=10ms
#pragma D option strsize=16

BEGIN
{
	a["k"] = 1;
	@c = count();
	printf("%s\n", "0123456789abcdefghij");
	exit(0);
}
