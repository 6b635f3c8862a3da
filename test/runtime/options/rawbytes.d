/* dtx-args: -x rawbytes */
/* dtx-cpu: 0 */
/* -x rawbytes: trace() of an integer prints its bytes as dtrace's hex dump. */

BEGIN
{
	trace((char)65);
	exit(0);
}
