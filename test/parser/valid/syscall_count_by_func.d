/* count system calls by name for one process, print the top ten each second */
/* dtx-args: -c '@TRIGGER@ getpid 1' */

#pragma D option quiet

syscall:::entry
/pid == $target/
{
	@calls[probefunc] = count();
}

tick-1s
{
	printf("%Y\n", walltimestamp);
	trunc(@calls, 10);
	printa("  %-24s %@8d\n", @calls);
	clear(@calls);
}
