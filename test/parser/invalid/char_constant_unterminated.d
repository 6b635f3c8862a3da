/* invalid: a character constant runs into the end of the line */

BEGIN
{
	x = 'a;
	exit(0);
}
