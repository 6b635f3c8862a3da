/* dtx-args: -q */
/*
 * setopt("rawbytes"): trace() prints every value as dtrace's hex dump, an
 * integer's bytes by its size, a string's whole slot (strsize characters and
 * the NUL, rounded up to 8 bytes).
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
