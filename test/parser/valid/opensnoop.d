#!/usr/sbin/dtrace -s
/* an opensnoop-style script: thread-local path at entry, printed with the result at return */

#pragma D option quiet
#pragma D option switchrate=10hz

dtrace:::BEGIN
{
	printf("%6s %6s %-16s %4s %3s %s\n", "UID", "PID", "COMM", "FD", "ERR", "PATH");
}

syscall::open:entry,
syscall::openat:entry
{
	self->path = probefunc == "openat" ? arg1 : arg0;
}

syscall::open:return,
syscall::openat:return
/self->path/
{
	this->fd = (int)arg0;
	printf("%6d %6d %-16s %4d %3d %s\n", uid, pid, execname,
	    this->fd, this->fd < 0 ? errno : 0, copyinstr(self->path));
	self->path = 0;
}
