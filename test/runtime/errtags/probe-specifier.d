/* dtx-args: -x errtags -n 'BEGIN { y = 1 + ; }' */
/*
 * -x errtags with a -n program: dtrace's "invalid probe specifier TEXT"; only
 * the first error is shown (the -n text comes before this script), as
 * dtrace stops at the first.
 */

BEGIN
{
	trace(nosuch);
}
