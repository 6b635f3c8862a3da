/* invalid: uu is not an integer suffix */

BEGIN
{
	x = 10uu;
	exit(0);
}
