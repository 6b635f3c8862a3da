/* dtx-cpu: 0 */
/*
 * A string prints as a string whatever its bytes (dt_print_trace): a tab and
 * a control character are written as they are, not as a hex dump.
 */

BEGIN
{
	trace("a\tb\001c");
	exit(0);
}
