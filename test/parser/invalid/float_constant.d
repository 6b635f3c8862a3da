/* invalid: D has no floating-point constants */

BEGIN
{
	x = 1.5;
	exit(0);
}
