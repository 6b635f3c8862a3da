/* A negative size in a pragma: refused as the program is read. */

#pragma D option strsize=-5

BEGIN
{
	exit(0);
}
