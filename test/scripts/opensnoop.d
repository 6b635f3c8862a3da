#!/usr/sbin/dtx -s
/*
 * opensnoop: every file opened through openat(2), by whom, and how the call
 * ended.
 * Usage: opensnoop.d                  (Ctrl-C to stop)
 *        dtx -s opensnoop.d -c 'cmd'  (stops when cmd exits)
 * Columns: PID the process, COMM its name, FD the descriptor returned (-1 on
 *          failure), ERR the errno (0 on success), PATH the path asked for.
 */
#pragma D option quiet
#pragma D option switchrate=10hz

BEGIN
{
	printf("%7s %-16s %4s %3s %s\n", "PID", "COMM", "FD", "ERR", "PATH");
}

syscall::openat:entry
{
	self->path = arg1;
}

syscall::openat:return
/self->path/
{
	printf("%7d %-16s %4d %3d %s\n", pid, execname, (int)arg1 < 0 ? -1 : (int)arg1,
	    errno, copyinstr(self->path));
	self->path = 0;
}
