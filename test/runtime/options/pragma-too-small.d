/* A string of no bytes could not even hold its NUL. */

#pragma D option strsize=0

BEGIN
{
	exit(0);
}
