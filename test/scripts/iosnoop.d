#!/usr/sbin/dtx -s
/*
 * iosnoop: every block device I/O as it completes, with its latency and the
 * process that issued it.
 * Usage: iosnoop.d                  (Ctrl-C to stop)
 *        dtx -s iosnoop.d -c 'cmd'  (stops when cmd exits)
 * Columns: DEVICE the device (sda, nvme0n1, loop0...), RW R for a read, W
 *          for a write, BLOCK the first block (512-byte sectors), BYTES the
 *          size, LAT(us) microseconds from io:::start to io:::done, PID and
 *          COMM the process that issued the request (0 and the kernel thread
 *          for writeback).
 */
#pragma D option quiet
#pragma D option switchrate=10hz

BEGIN
{
	printf("%-10s %2s %12s %8s %9s %7s %s\n", "DEVICE", "RW", "BLOCK", "BYTES",
	    "LAT(us)", "PID", "COMM");
}

io:::start
{
	start[args[0]->b_edev, args[0]->b_blkno] = timestamp;
	issuer[args[0]->b_edev, args[0]->b_blkno] = pid;
	issuername[args[0]->b_edev, args[0]->b_blkno] = execname;
}

io:::done
/start[args[0]->b_edev, args[0]->b_blkno]/
{
	this->key_dev = args[0]->b_edev;
	this->key_blk = args[0]->b_blkno;
	printf("%-10s %2s %12d %8d %9d %7d %s\n", args[1]->dev_statname,
	    args[0]->b_flags & B_READ ? "R" : "W", args[0]->b_blkno, args[0]->b_bcount,
	    (timestamp - start[this->key_dev, this->key_blk]) / 1000,
	    issuer[this->key_dev, this->key_blk], issuername[this->key_dev, this->key_blk]);
	start[this->key_dev, this->key_blk] = 0;
	issuer[this->key_dev, this->key_blk] = 0;
	issuername[this->key_dev, this->key_blk] = NULL;
}
