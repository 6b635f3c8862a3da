/* dtx-args: -q */
/*
 * setopt("rawbytes"): trace() prints every value as dtrace's hex dump, an
 * integer's bytes by its size, a string's whole buffer.
 */

#pragma D option strsize=16

BEGIN
{
	trace((short)0x4142);
	setopt("rawbytes");
}

BEGIN
{
	trace((short)0x4142);
	trace(0x01020304);
	trace("hi");
	exit(0);
}
