/* on-CPU sampling by CPU and process, printed and reset every interval, stopping after a fixed count */

#pragma D option quiet

profile-1001
{
	@oncpu[cpu] = count();
	@procs[execname] = count();
}

tick-1s
{
	printf("\n%Y\n", walltimestamp);
	printa("  cpu %3d  %@6d samples\n", @oncpu);
	trunc(@procs, 5);
	printa("  %-16s %@6d\n", @procs);
	clear(@oncpu);
	trunc(@procs);
	secs++;
}

tick-1s
/secs == 10/
{
	exit(0);
}
