#!/usr/sbin/dtx -s
/*
 * cpuwalk: which CPUs each process runs on, sampled 997 times a second on
 * every CPU, one histogram per process, printed when tracing ends.
 * Usage: cpuwalk.d                  (Ctrl-C to stop and print)
 *        dtx -s cpuwalk.d -c 'cmd'  (prints when cmd exits)
 * Output: for each COMM and PID, a linear histogram of the CPU numbers its
 *         samples were taken on (value, distribution, count); the idle
 *         thread (pid 0) is left out.
 */
#pragma D option quiet

profile:::profile-997
/pid != 0/
{
	@cpus[execname, pid] = lquantize(cpu, 0, 256, 1);
}

dtrace:::END
{
	printa("COMM %s PID %d, CPUs sampled on\n%@d\n", @cpus);
}
