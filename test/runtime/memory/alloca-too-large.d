/* dtx-args: -q -x scratchsize=64 */
/*
 * A constant alloca() size beyond scratchsize is a compile-time error.
 */

BEGIN
{
	p = alloca(65);
	exit(0);
}
