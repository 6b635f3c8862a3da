/* division inside predicates: the / of the expression must not end the predicate */

syscall::read:return
/ (arg0 / 2) > 3 /
{
	@halves = quantize(arg0 / 2);
}

syscall::write:entry
/arg2 / 1024 > 4/
{
	@kb[execname] = sum(arg2 / 1024);
}

syscall::pread64:entry
/(arg2 / 512) * 512 != arg2 && arg2 / 4096/
{
	@unaligned[execname] = count();
}

syscall::pwrite64:entry
/arg2/
{
	@pw = count();
}
