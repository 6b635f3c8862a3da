/* dtx-args: -q */
/* dtx-operands: one */
/* $2 when one argument is given is an error that names it. */

BEGIN
{
	trace($2);
	exit(0);
}
