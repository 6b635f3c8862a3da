/* invalid: frobnicate is not a #pragma D directive */

#pragma D frobnicate

BEGIN
{
	exit(0);
}
