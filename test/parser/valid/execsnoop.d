/* an execsnoop-style script: new processes with their arguments, parent and time */

#pragma D option quiet

BEGIN
{
	printf("%-20s %6s %6s %s\n", "TIME", "PID", "PPID", "ARGS");
}

syscall::execve:entry
{
	self->file = arg0;
}

syscall::execve:return
/self->file && (int)arg0 == 0/
{
	printf("%-20Y %6d %6d %s\n", walltimestamp, pid, ppid, curpsinfo->pr_psargs);
	self->file = 0;
}

syscall::execve:return
/self->file/
{
	self->file = 0;
}
