/* linear histograms: lquantize with and without the step argument, and negative bounds */

syscall::write:entry
{
	@linear = lquantize(arg2, 0, 4096, 256);
}

syscall::write:return
{
	@ret = lquantize((int)arg0, -10, 10);
}

profile-97
{
	@load[cpu] = lquantize(curthread->prio, 0, 140, 10);
}
