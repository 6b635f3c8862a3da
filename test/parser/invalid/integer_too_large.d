/* invalid: the decimal constant 2^64 does not fit in 64 bits */

BEGIN
{
	x = 18446744073709551616;
	exit(0);
}
