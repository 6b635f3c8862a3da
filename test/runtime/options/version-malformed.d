/* A version that is not numbers and dots, in a pragma: D_PRAGMA_OPTSET. */

#pragma D option version=2.x

BEGIN
{
	exit(0);
}
