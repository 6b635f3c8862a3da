/* dtx-cpu: 0 */
/*
 * Default output (no -q): the header, then per firing the CPU, probe ID and
 * FUNCTION:NAME, then each traced value: a 4-byte int as " %10d", a string
 * as "  %-33s" (dtrace-utils' widths). BEGIN is probe ID 1.
 */

BEGIN
{
	trace(42);
	trace("hello");
	exit(0);
}
