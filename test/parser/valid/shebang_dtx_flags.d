#!/usr/sbin/dtx -qs
/* a #! line naming dtx with combined flags; macro arguments come from the command line */

#pragma D option defaultargs

syscall::openat:entry
/pid == $1/
{
	printf("%s\n", copyinstr(arg1));
}
