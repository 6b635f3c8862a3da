/* invalid: a character constant longer than 8 characters does not fit in 64 bits */

BEGIN
{
	x = 'abcdefghi';
	exit(0);
}
