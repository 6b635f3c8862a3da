#!/usr/sbin/dtx -s
/*
 * pidpersec: how many new processes start each second, and the last one.
 * Usage: pidpersec.d                  (Ctrl-C to stop)
 *        dtx -s pidpersec.d -c 'cmd'  (stops when cmd exits)
 * Columns, one line a second: TIME wall-clock time, LASTPID the latest new
 *          process, FORKS/s processes created (proc:::create) in that second,
 *          EXECS/s programs executed (proc:::exec-success).
 */
#pragma D option quiet

BEGIN
{
	printf("%-20s %8s %8s %8s\n", "TIME", "LASTPID", "FORKS/s", "EXECS/s");
	forks = 0;
	execs = 0;
	lastpid = 0;
}

proc:::create
{
	forks++;
	lastpid = args[0]->pr_pid;
}

proc:::exec-success
{
	execs++;
}

profile:::tick-1s
{
	printf("%-20Y %8d %8d %8d\n", walltimestamp, lastpid, forks, execs);
	forks = 0;
	execs = 0;
}
