/* dtx-args: -x bufsize=4mb */
/* A size takes one suffix letter (k, m, g, t), as dtrace reads it. */

BEGIN
{
	exit(0);
}
