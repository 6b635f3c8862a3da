/*
 * #pragma D option errtags: the same one-line form for an error found after
 * parsing (an undefined variable), from the script's own pragma.
 */

#pragma D option errtags

BEGIN
{
	trace(nosuch);
}
