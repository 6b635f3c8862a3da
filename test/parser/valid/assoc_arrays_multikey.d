/* associative arrays with single and tuple keys of mixed types, read and written, and deleted by assigning 0 */

syscall::openat:entry
{
	seen[pid, execname] = 1;
	opens[pid, execname, tid] += 1;
	last_open[execname] = timestamp;
	calls[probefunc, uid, gid, cpu] = walltimestamp;
	self->fds[arg0] = arg2;
}

syscall::openat:return
/seen[pid, execname]/
{
	times[pid, execname, (int)arg0] = timestamp - last_open[execname];
	seen[pid, execname] = 0;
}

syscall::close:entry
/self->fds[arg0]/
{
	self->fds[arg0] = 0;
}

END
{
	printf("%d\n", opens[$pid, "dtx", $pid]);
}
