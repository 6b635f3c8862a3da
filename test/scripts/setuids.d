#!/usr/sbin/dtx -s
/*
 * setuids: every call that changes a process's user or group IDs (setuid,
 * setreuid, setresuid, setfsuid and their gid twins), with its arguments
 * and result.
 * Usage: setuids.d                  (Ctrl-C to stop)
 *        dtx -s setuids.d -c 'cmd'  (stops when cmd exits)
 * Columns: UID the caller's real user ID, PID, PPID, COMM, SYSCALL the call,
 *          ARGS its ID arguments (-1 leaves an ID unchanged), RET its return
 *          value (-1 and ERR on failure), ERR the errno.
 */
#pragma D option quiet
#pragma D option switchrate=10hz

BEGIN
{
	printf("%6s %7s %7s %-16s %-10s %-20s %4s %3s\n", "UID", "PID", "PPID", "COMM",
	    "SYSCALL", "ARGS", "RET", "ERR");
}

syscall::setuid:entry,
syscall::setgid:entry,
syscall::setfsuid:entry,
syscall::setfsgid:entry
{
	self->args = lltostr((int)arg0);
}

syscall::setreuid:entry,
syscall::setregid:entry
{
	self->args = strjoin(lltostr((int)arg0), strjoin(" ", lltostr((int)arg1)));
}

syscall::setresuid:entry,
syscall::setresgid:entry
{
	self->args = strjoin(lltostr((int)arg0), strjoin(" ", strjoin(lltostr((int)arg1),
	    strjoin(" ", lltostr((int)arg2)))));
}

syscall::set*id:return
/self->args != NULL/
{
	printf("%6d %7d %7d %-16s %-10s %-20s %4d %3d\n", uid, pid, ppid, execname, probefunc,
	    self->args, errno != 0 ? -1 : (int)arg1, errno);
	self->args = NULL;
}
