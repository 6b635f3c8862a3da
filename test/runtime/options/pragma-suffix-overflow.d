/* A size whose suffix multiplies it beyond 64 bits is out of range. */

#pragma D option dynvarsize=16777216t

BEGIN
{
	exit(0);
}
