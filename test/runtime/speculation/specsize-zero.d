/* dtx-args: -q -x specsize=0 */
/* specsize needs a size: 0 is refused before compiling (exit status 1). */

BEGIN
{
	exit(0);
}
