/* log-linear histogram of read latency with llquantize(value, factor, low, high, steps) */

syscall::read:entry
{
	self->ts = timestamp;
}

syscall::read:return
/self->ts/
{
	@latency["read ns"] = llquantize(timestamp - self->ts, 10, 0, 9, 20);
	self->ts = 0;
}
