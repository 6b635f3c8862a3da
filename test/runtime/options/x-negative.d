/* dtx-args: -x bufsize=-1 */
/* A negative size is not a size: refused before compiling (exit status 1). */

BEGIN
{
	exit(0);
}
