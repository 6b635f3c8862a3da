#!/usr/sbin/dtx -s
/*
 * biolatency: the distribution of block I/O latency, from io:::start to
 * io:::done, one histogram per device, printed when tracing ends.
 * Usage: biolatency.d                  (Ctrl-C to stop and print)
 *        dtx -s biolatency.d -c 'cmd'  (prints when cmd exits)
 * Output: for each device (DEVICE), a power-of-two histogram of latency in
 *         microseconds (value, distribution, count).
 */
#pragma D option quiet

io:::start
{
	start[args[0]->b_edev, args[0]->b_blkno] = timestamp;
}

io:::done
/start[args[0]->b_edev, args[0]->b_blkno]/
{
	@usecs[args[1]->dev_statname] =
	    quantize((timestamp - start[args[0]->b_edev, args[0]->b_blkno]) / 1000);
	start[args[0]->b_edev, args[0]->b_blkno] = 0;
}

dtrace:::END
{
	printa("DEVICE %s, block I/O latency (us)\n%@d\n", @usecs);
}
