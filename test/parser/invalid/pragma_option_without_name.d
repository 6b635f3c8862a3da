/* invalid: #pragma D option with no option name */

#pragma D option

BEGIN
{
	exit(0);
}
