/* profile provider forms: profile-997, profile-10ms, tick-10ms, profile:::tick-1s, tick-1sec */

profile-997
/pid != 0/
{
	@oncpu[execname] = count();
}

profile:::profile-10ms
{
	@ticks = count();
}

tick-10ms
{
	n++;
}

profile:::tick-1s
{
	printa(@oncpu);
	trunc(@oncpu);
}

tick-1sec
/n > 500/
{
	exit(0);
}
