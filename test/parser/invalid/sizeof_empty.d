/* invalid: sizeof() with neither a type nor an expression */

BEGIN
{
	x = sizeof();
	exit(0);
}
