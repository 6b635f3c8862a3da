/* invalid: # in the middle of a line is not a D token */

BEGIN
{
	x = 1 # 2;
	exit(0);
}
