#!/usr/sbin/dtx -s
/*
 * cpudist: how long threads run on a CPU each time they get one, from the
 * sched_switch that puts them on to the one that takes them off, as one
 * histogram per process and thread, printed when tracing ends.
 * Usage: cpudist.d                  (Ctrl-C to stop and print)
 *        dtx -s cpudist.d -c 'cmd'  (prints when cmd exits)
 * Output: for each COMM, PID and TID, a power-of-two histogram of on-CPU
 *         time in microseconds (value, distribution, count).
 */
#pragma D option quiet

/*
 * Declared, as the first assignment in the text (oncpu[...] = 0) would
 * otherwise make the values int and truncate the timestamps.
 */
uint64_t oncpu[int];

/* args[]: 1 prev_pid (the thread leaving), 5 next_pid (the thread coming on). */
sdt:sched::sched_switch
/oncpu[args[1]] && args[1] != 0/
{
	/* The probe fires in the context of the thread leaving the CPU. */
	@usecs[execname, pid, tid] = quantize((timestamp - oncpu[args[1]]) / 1000);
	oncpu[args[1]] = 0;
}

sdt:sched::sched_switch
/args[5] != 0/
{
	oncpu[args[5]] = timestamp;
}

dtrace:::END
{
	printa("COMM %s PID %d TID %d, on-CPU time (us)\n%@d\n", @usecs);
}
