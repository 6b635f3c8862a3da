#!/usr/sbin/dtrace -s
/* a script run directly through a #! line, with a pragma right after it */

#pragma D option quiet

BEGIN
{
	printf("hello from a #! script\n");
	exit(0);
}
