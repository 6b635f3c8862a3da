/* dtx-args: -x aggsize=99999999999999999999 */
/* A number beyond 64 bits is out of range, not read modulo 2^64. */

BEGIN
{
	exit(0);
}
