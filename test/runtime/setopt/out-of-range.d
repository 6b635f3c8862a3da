/*
 * setopt() of a value out of its option's range: dtrace's warning, with the
 * range, and tracing goes on with the option as it was.
 */

#pragma D option quiet

BEGIN
{
	setopt("stackindent", "5000");
	setopt("switchrate", "999999999999d");
	setopt("aggsortpos", "99999999999999999999");
	printf("still tracing\n");
	exit(0);
}
