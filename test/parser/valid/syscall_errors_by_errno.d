/* failed system calls by process, call and errno */

syscall:::return
/(int)arg0 < 0 && errno != 0/
{
	@fails[execname, probefunc, errno] = count();
}

END
{
	printf("%-16s %-20s %5s %8s\n", "EXEC", "SYSCALL", "ERR", "COUNT");
	printa("%-16s %-20s %5d %@8d\n", @fails);
}
