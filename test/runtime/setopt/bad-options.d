/*
 * setopt() of a name dtrace does not define, of a bad value, and of an option
 * that cannot change while tracing: dtrace's warning for each (with its
 * blank line), and tracing goes on (dtrace-utils' tst.badopt).
 */

#pragma D option quiet

BEGIN
{
	setopt("Nixon");
	setopt("Harding");
	setopt("quiet", "um, no");
	setopt("aggrate", "0.5hz");
	setopt("bufsize", "1m");
	printf("still tracing\n");
	exit(0);
}
