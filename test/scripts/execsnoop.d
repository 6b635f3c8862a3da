#!/usr/sbin/dtx -s
/*
 * execsnoop: every new program run on the system, as it starts, with its
 * full argument list.
 * Usage: execsnoop.d                  (Ctrl-C to stop)
 *        dtx -s execsnoop.d -c 'cmd'  (stops when cmd exits)
 * Columns: TIME wall-clock time of the exec, PID the process, PPID its
 *          parent, ARGS its arguments (curpsinfo->pr_psargs).
 */
#pragma D option quiet
#pragma D option switchrate=10hz

BEGIN
{
	printf("%-20s %7s %7s %s\n", "TIME", "PID", "PPID", "ARGS");
}

proc:::exec-success
{
	printf("%-20Y %7d %7d %s\n", walltimestamp, pid, ppid, curpsinfo->pr_psargs);
}
