/* dtx-args: -q -p 1,2 */
/* -p takes one pid: a list is a usage error (dtrace: "invalid pid: 1,2"). */

BEGIN
{
	exit(0);
}
