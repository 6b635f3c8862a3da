/* dtx-args: -x switchrate=999999999999d */
/* A rate whose unit multiplies it beyond dtrace's 64-bit values is out of range. */

BEGIN
{
	exit(0);
}
