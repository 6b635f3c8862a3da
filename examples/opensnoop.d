#!/usr/sbin/dtx -s
/* Show each file opened, by whom, and whether it succeeded. */
#pragma D option quiet

BEGIN
{
	printf("%-6s %-16s %4s %s\n", "PID", "COMM", "FD", "PATH");
}

syscall::openat:entry
{
	self->path = arg1;
}

syscall::openat:return
/self->path/
{
	printf("%-6d %-16s %4d %s\n", pid, execname, (int)arg1, copyinstr(self->path));
	self->path = 0;
}
