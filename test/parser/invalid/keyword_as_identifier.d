/* invalid: the keyword provider used as a variable name */

BEGIN
{
	provider = 1;
	exit(0);
}
