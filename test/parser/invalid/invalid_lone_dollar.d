/* invalid: $ not followed by a digit or a macro variable name */

BEGIN
{
	x = $;
	exit(0);
}
