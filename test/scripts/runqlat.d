#!/usr/sbin/dtx -s
/*
 * runqlat: how long runnable threads wait on a run queue before they run,
 * from their wakeup (or preemption) to the sched_switch that puts them on
 * CPU, as one histogram per command name, printed when tracing ends.
 * (sched:::enqueue and on-cpu are not available on every kernel, so this
 * uses sched:::wakeup and the sched_switch tracepoint.)
 * Usage: runqlat.d                  (Ctrl-C to stop and print)
 *        dtx -s runqlat.d -c 'cmd'  (prints when cmd exits)
 * Output: for each COMM, a power-of-two histogram of run queue latency in
 *         microseconds (value, distribution, count).
 */
#pragma D option quiet

/* A thread woken up is put on a run queue. */
sched:::wakeup
{
	queued[args[0]->pr_lwpid] = timestamp;
}

/* args[]: 0 prev_comm, 1 prev_pid, 3 prev_state, 4 next_comm, 5 next_pid. */
/* A thread preempted while runnable (state 0) goes back on the run queue. */
sdt:sched::sched_switch
/args[3] == 0 && args[1] != 0/
{
	queued[args[1]] = timestamp;
}

sdt:sched::sched_switch
/queued[args[5]]/
{
	@usecs[stringof(args[4])] = quantize((timestamp - queued[args[5]]) / 1000);
	queued[args[5]] = 0;
}

dtrace:::END
{
	printa("COMM %s, run queue latency (us)\n%@d\n", @usecs);
}
