#!/usr/sbin/dtx -s
/*
 * syscount: system calls counted by name and by process, printed when
 * tracing ends.
 * Usage: syscount.d                  (Ctrl-C to stop and print)
 *        dtx -s syscount.d -c 'cmd'  (prints when cmd exits)
 * Columns: first SYSCALL and COUNT, the calls of every process by name;
 *          then PID, COMM and COUNT, the calls of each process; the
 *          largest counts last, as DTrace prints aggregations.
 */
#pragma D option quiet

syscall:::entry
{
	@bysyscall[probefunc] = count();
	@byprocess[pid, execname] = count();
}

dtrace:::END
{
	printf("%-24s %10s\n", "SYSCALL", "COUNT");
	printa("%-24s %@10d\n", @bysyscall);
	printf("\n%7s %-16s %10s\n", "PID", "COMM", "COUNT");
	printa("%7d %-16s %@10d\n", @byprocess);
}
