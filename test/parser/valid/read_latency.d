/* per-syscall latency with thread-local timestamps, in microseconds, by process, with a threshold */

inline int SLOW_US = 10000;

syscall::read:entry,
syscall::write:entry
{
	self->ts[probefunc] = timestamp;
}

syscall::read:return,
syscall::write:return
/self->ts[probefunc]/
{
	this->us = (timestamp - self->ts[probefunc]) / 1000;
	@lat[probefunc, execname] = quantize(this->us);
	@avg_us[probefunc] = avg(this->us);
	@slow[execname] = sum(this->us > SLOW_US);
	self->ts[probefunc] = 0;
}

END
{
	printa(@lat);
	printa("%-8s %@d us\n", @avg_us);
}
