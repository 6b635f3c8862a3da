/* every aggregating function: count sum avg min max stddev quantize lquantize llquantize, keyed and anonymous */

syscall::read:return
/arg0 >= 0/
{
	@ = count();
	@calls[execname] = count();
	@total[execname] = sum(arg0);
	@mean[execname] = avg(arg0);
	@smallest[execname] = min(arg0);
	@largest[execname] = max(arg0);
	@spread[execname] = stddev(arg0);
	@pow2[execname] = quantize(arg0);
	@lin[execname] = lquantize(arg0, 0, 65536, 4096);
	@loglin[execname] = llquantize(arg0, 10, 0, 6, 10);
	@byfunc[probefunc] = sum(1);
}
