/* A rate is a whole number with a unit: dtrace refuses "0.5hz". */

#pragma D option switchrate=0.5hz

BEGIN
{
	exit(0);
}
