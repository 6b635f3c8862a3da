/* invalid: empty parentheses where an expression is required */

BEGIN
{
	x = ();
	exit(0);
}
