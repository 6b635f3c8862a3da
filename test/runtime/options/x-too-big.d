/* dtx-args: -x bufsize=1g */
/*
 * The ring buffer is at most 512m: its size is a power of two and the BTF
 * that declares it cannot say 1g. Refused before compiling, not at load.
 */

BEGIN
{
	exit(0);
}
