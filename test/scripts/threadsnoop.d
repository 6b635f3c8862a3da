#!/usr/sbin/dtx -s
/*
 * threadsnoop: every new thread (not process) as it is created, and its end.
 * Usage: threadsnoop.d                  (Ctrl-C to stop)
 *        dtx -s threadsnoop.d -c 'cmd'  (stops when cmd exits)
 * Columns: TIME wall-clock time, EVENT create (proc:::lwp-create, in the
 *          creating thread) or exit (proc:::lwp-exit, in the thread itself),
 *          PID and COMM the process, TID the creating or the exiting thread,
 *          NEWTID the new thread (create only), AGE(us) how long the thread
 *          lived (exit only).
 */
#pragma D option quiet
#pragma D option switchrate=10hz

BEGIN
{
	printf("%-20s %-6s %7s %-16s %7s %7s %9s\n", "TIME", "EVENT", "PID", "COMM", "TID",
	    "NEWTID", "AGE(us)");
}

/* args[0] the new thread, args[1] its process. */
proc:::lwp-create
{
	printf("%-20Y %-6s %7d %-16s %7d %7d %9s\n", walltimestamp, "create", pid, execname,
	    tid, args[0]->pr_lwpid, "-");
}

/* A process's last thread ends the process: that is exitsnoop's business. */
proc:::lwp-exit
/tid != pid/
{
	printf("%-20Y %-6s %7d %-16s %7d %7s %9d\n", walltimestamp, "exit", pid, execname, tid,
	    "-", (timestamp - curthread->start_time) / 1000);
}
