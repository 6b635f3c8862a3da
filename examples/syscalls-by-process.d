#!/usr/sbin/dtx -s
/* Count system calls by process name until Ctrl-C, then print the counts. */
syscall:::entry
{
	@calls[execname] = count();
}
