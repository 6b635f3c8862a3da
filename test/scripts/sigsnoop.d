#!/usr/sbin/dtx -s
/*
 * sigsnoop: every signal sent on the system, by whom and to whom.
 * Usage: sigsnoop.d                  (Ctrl-C to stop)
 *        dtx -s sigsnoop.d -c 'cmd'  (stops when cmd exits)
 * Columns: TIME wall-clock time, FROM and COMM the sending process (the
 *          kernel's context for signals it raises itself), TO the target
 *          process, TID its thread, TCOMM its name, SIG the signal number.
 */
#pragma D option quiet
#pragma D option switchrate=10hz

BEGIN
{
	printf("%-20s %7s %-16s %7s %7s %-16s %3s\n", "TIME", "FROM", "COMM", "TO", "TID",
	    "TCOMM", "SIG");
}

/* args[0] the target thread, args[1] its process, args[2] the signal. */
proc:::signal-send
{
	printf("%-20Y %7d %-16s %7d %7d %-16s %3d\n", walltimestamp, pid, execname,
	    args[1]->pr_pid, args[0]->pr_lwpid, args[1]->pr_fname, args[2]);
}
