/* dtx-args: -x bufsize=0 */
/* A buffer of no bytes is refused. */

BEGIN
{
	exit(0);
}
