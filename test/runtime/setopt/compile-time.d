/*
 * setopt() of a compile-time option: a flag refuses the "1" a bare setopt()
 * passes (dtrace-utils' dt_opt_cflags), an option with a value takes it and
 * changes nothing, as in dtrace.
 */

#pragma D option quiet

BEGIN
{
	setopt("zdefs");
	setopt("cpppath", "/usr/bin/cpp");
	setopt("linkmode", "nowhere");
	exit(0);
}
