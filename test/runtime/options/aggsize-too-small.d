/* dtx-args: -q */
/*
 * An aggsize too small to hold even one aggregation is an error when tracing
 * is enabled (dtrace-utils: "could not enable tracing: Enabling exceeds size
 * of buffer"), exit status 1, nothing traced.
 */

#pragma D option aggsize=8

BEGIN
{
	@ = count();
	exit(0);
}
