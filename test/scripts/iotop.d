#!/usr/sbin/dtx -s
/*
 * iotop: block device I/O summarized by process, device and direction,
 * every five seconds, the busiest last (as DTrace sorts aggregations).
 * Usage: iotop.d                  (Ctrl-C to stop)
 *        dtx -s iotop.d -c 'cmd'  (stops when cmd exits, with a last summary)
 * Columns: PID and COMM the process that issued the requests, DEVICE the
 *          device, RW R for reads, W for writes, IOS the number of requests,
 *          BYTES their total size.
 */
#pragma D option quiet

io:::start
{
	this->rw = args[0]->b_flags & B_READ ? "R" : "W";
	@ios[pid, execname, args[1]->dev_statname, this->rw] = count();
	@bytes[pid, execname, args[1]->dev_statname, this->rw] = sum(args[0]->b_bcount);
}

profile:::tick-5s,
dtrace:::END
{
	printf("%Y\n", walltimestamp);
	printf("%7s %-16s %-10s %2s %6s %12s\n", "PID", "COMM", "DEVICE", "RW", "IOS", "BYTES");
	printa("%7d %-16s %-10s %2s %@6d %@12d\n", @ios, @bytes);
	printf("\n");
	trunc(@ios);
	trunc(@bytes);
}
