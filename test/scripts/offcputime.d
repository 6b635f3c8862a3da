#!/usr/sbin/dtx -s
/*
 * offcputime: where threads block and for how long: the time from the
 * sched_switch that takes a thread off a CPU to the one that puts it back,
 * summed by process, thread state and kernel stack, printed when tracing
 * ends.
 * Usage: offcputime.d                  (Ctrl-C to stop and print)
 *        dtx -s offcputime.d -c 'cmd'  (prints when cmd exits)
 * Output: for each COMM, PID and STATE (S sleeping, R preempted while
 *         runnable, D uninterruptible...), the kernel stack it left the CPU
 *         from, then the total microseconds it spent off CPU from there.
 */
#pragma D option quiet

/* Declared: the first assignment in the text frees an element (= 0). */
uint64_t offtime[int];

/*
 * sched_switch fires in the context of the thread leaving the CPU (args[1]
 * prev_pid), so stack() is where it blocked. (sched:::off-cpu would do, but
 * its stack() begins with dtx's own BPF frames.)
 */
sdt:sched::sched_switch
/args[1] != 0/
{
	offtime[tid] = timestamp;
	offstack[tid] = stack();
	offstate[tid] = curlwpsinfo->pr_sname;
	offcomm[tid] = execname;
	offpid[tid] = pid;
}

/* args[5] next_pid: the thread coming back on CPU. */
sdt:sched::sched_switch
/offtime[args[5]]/
{
	this->tid = args[5];
	@usecs[offcomm[this->tid], offpid[this->tid], offstate[this->tid],
	    offstack[this->tid]] = sum((timestamp - offtime[this->tid]) / 1000);
	offtime[this->tid] = 0;
	offpid[this->tid] = 0;
	offstate[this->tid] = 0;
	offcomm[this->tid] = NULL;
}

dtrace:::END
{
	printa("COMM %s PID %d STATE %c%k  total %@d us\n\n", @usecs);
}
