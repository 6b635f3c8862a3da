/* A flag such as zdefs takes no value (dtrace refuses zdefs=yes too). */

#pragma D option zdefs=yes

BEGIN
{
	exit(0);
}
