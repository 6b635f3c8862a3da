/* printa with and without a format, with %@ conversions, several aggregations at once, and keyed by tuples */

#pragma D option quiet

syscall::read:return,
syscall::write:return
/arg0 > 0/
{
	@count[execname, probefunc] = count();
	@bytes[execname, probefunc] = sum(arg0);
	@dist[probefunc] = quantize(arg0);
}

END
{
	printa(@count);
	printa("%-16s %-8s %@10d\n", @count);
	printa("%-16s %-8s %@10d calls %@12d bytes\n", @count, @bytes);
	printa("%s\n%@d\n", @dist);
	printa(@dist);
	printa("%@u\n", @count);
}
