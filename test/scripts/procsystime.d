#!/usr/sbin/dtx -s
/*
 * procsystime: the time one process spends in each system call, and how
 * many times it makes each, printed when tracing ends.
 * Usage: dtx -s procsystime.d -p PID      (Ctrl-C to stop and print)
 *        dtx -s procsystime.d -c 'cmd'    (prints when cmd exits)
 * Columns: SYSCALL the system call, CALLS how many calls returned, TIME(ns)
 *          their total elapsed time in nanoseconds; the most called last.
 */
#pragma D option quiet

syscall:::entry
/pid == $target/
{
	self->start = timestamp;
}

syscall:::return
/self->start/
{
	this->elapsed = timestamp - self->start;
	@calls[probefunc] = count();
	@elapsed[probefunc] = sum(this->elapsed);
	self->start = 0;
}

dtrace:::END
{
	printf("%-20s %8s %14s\n", "SYSCALL", "CALLS", "TIME(ns)");
	printa("%-20s %@8d %@14d\n", @calls, @elapsed);
}
