/* invalid: 089 is an octal constant with the digits 8 and 9 */

BEGIN
{
	x = 089;
	exit(0);
}
