/* aggregation management: trunc to N, trunc negative, trunc all, clear, normalize and denormalize */

#pragma D option quiet

syscall:::entry
{
	@calls[probefunc] = count();
	@top[execname] = count();
	@rate[execname] = count();
}

tick-1s
{
	trunc(@top, 5);
	printa(@top);
	trunc(@top);
	normalize(@rate, 1);
	printa("%-16s %@d/s\n", @rate);
	denormalize(@rate);
	clear(@rate);
}

tick-10s
{
	trunc(@calls, -3);
	normalize(@calls, 10);
	printa(@calls);
	exit(0);
}
