/* dtx-args: -x version=3.0 */
/* A version dtrace does not define is an error that lists the ones it does. */

BEGIN
{
	exit(0);
}
