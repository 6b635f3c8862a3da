#!/usr/sbin/dtx -s
/*
 * killsnoop: every kill(2) and tgkill(2) call, with its signal, its target
 * and its result.
 * Usage: killsnoop.d                  (Ctrl-C to stop)
 *        dtx -s killsnoop.d -c 'cmd'  (stops when cmd exits)
 * Columns: FROM and COMM the calling process, SYSCALL kill or tgkill, SIG
 *          the signal number (0 checks that the target exists), TO the
 *          target pid (for kill: 0 the caller's process group, -1 every
 *          process, -N process group N), RESULT 0 on success, -1 on
 *          failure, ERR the errno.
 */
#pragma D option quiet
#pragma D option switchrate=10hz

BEGIN
{
	printf("%7s %-16s %-7s %4s %7s %6s %3s\n", "FROM", "COMM", "SYSCALL", "SIG", "TO",
	    "RESULT", "ERR");
}

syscall::kill:entry
{
	self->target = (int)arg0;
	self->sig = (int)arg1;
	self->called = 1;
}

/* tgkill(tgid, tid, sig): the target shown is the thread group. */
syscall::tgkill:entry
{
	self->target = (int)arg0;
	self->sig = (int)arg2;
	self->called = 1;
}

syscall::kill:return,
syscall::tgkill:return
/self->called/
{
	printf("%7d %-16s %-7s %4d %7d %6d %3d\n", pid, execname, probefunc, self->sig,
	    self->target, errno != 0 ? -1 : (int)arg1, errno);
	self->target = 0;
	self->sig = 0;
	self->called = 0;
}
