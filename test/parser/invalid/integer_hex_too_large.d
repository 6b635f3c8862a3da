/* invalid: a hexadecimal constant with seventeen significant digits does not fit in 64 bits */

BEGIN
{
	x = 0x10000000000000000;
	exit(0);
}
