/* bytes read and written by process and file descriptor, top 20, with a custom header */

#pragma D option quiet
#pragma D option aggsortrev

syscall::read:return,
syscall::write:return
/arg0 > 0 && self->fd >= 0/
{
	@bytes[execname, pid, probefunc == "read" ? "R" : "W", self->fd] = sum(arg0);
}

syscall::read:entry,
syscall::write:entry
{
	self->fd = arg0;
}

END
{
	trunc(@bytes, 20);
	printf("%-16s %6s %1s %4s %12s\n", "COMM", "PID", "D", "FD", "BYTES");
	printa("%-16s %6d %1s %4d %@12d\n", @bytes);
}
