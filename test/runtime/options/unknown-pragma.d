/* A name dtrace does not define is an error in a pragma too. */

#pragma D option nosuchoption=1

BEGIN
{
	exit(0);
}
