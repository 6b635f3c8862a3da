/* dtx-args: -x strsize=16k */
/* A string and its NUL must fit whole in one record (16368 bytes of data). */

BEGIN
{
	exit(0);
}
