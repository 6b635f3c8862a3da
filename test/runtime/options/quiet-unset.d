/* dtx-args: -x quiet=no */
/* dtx-cpu: 0 */
/*
 * -x wins over #pragma D option, and "no" unsets a toggled option as in
 * dtrace: the default output.
 */

#pragma D option quiet

BEGIN
{
	trace(1);
	exit(0);
}
