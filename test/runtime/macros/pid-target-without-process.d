/* dtx-args: -q */
/* pid$target without -c or -p is pid0, which matches no probe. */

pid$target::main:entry
{
	exit(0);
}
