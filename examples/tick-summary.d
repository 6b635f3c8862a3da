#!/usr/sbin/dtx -s
/* Sample on-CPU process names at 97 Hz and print the top 10 every 5 seconds. */
#pragma D option quiet

profile-97
/pid != 0/
{
	@oncpu[execname] = count();
}

tick-5s
{
	trunc(@oncpu, 10);
	printa("%-24s %@8d\n", @oncpu);
	printf("\n");
	clear(@oncpu);
}
