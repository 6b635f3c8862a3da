/* power-of-two histogram of read sizes per process */

syscall::read:return
/arg0 > 0/
{
	@sizes[execname] = quantize(arg0);
}

END
{
	printa(@sizes);
}
