/* Anything after the suffix letter makes a size unreadable. */

#pragma D option aggsize=1k2

BEGIN
{
	exit(0);
}
