/* invalid: two operands with no operator between them */

BEGIN
{
	x = 1 2;
	exit(0);
}
