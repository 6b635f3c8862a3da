#!/usr/sbin/dtx -s
/*
 * How long a command asks nanosleep(2) to sleep: the struct timespec it
 * passes, copied in from its memory through a union of the struct and the
 * two 64-bit words it is made of, then the distribution of the intervals
 * in nanoseconds.
 * Usage: dtx -s sleep-intervals.d -c 'command'   (or -p PID)
 */
#pragma D option quiet

/* The user's struct timespec on 64-bit Linux (the kernel's __kernel_timespec). */
struct user_timespec {
	int64_t tv_sec;
	int64_t tv_nsec;
};

union interval {
	struct user_timespec ts;
	uint64_t words[2];
};

syscall::nanosleep:entry
/pid == $target/
{
	this->interval = (union interval *)copyin(arg0, sizeof (union interval));
	printf("%s: %d s %d ns (words 0x%x 0x%x)\n", execname, this->interval->ts.tv_sec,
	    this->interval->ts.tv_nsec, this->interval->words[0], this->interval->words[1]);
	@ns[execname] = quantize(this->interval->ts.tv_sec * 1000000000 +
	    this->interval->ts.tv_nsec);
}
