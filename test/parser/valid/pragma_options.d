/* #pragma D option forms: flags, key=value with size and rate suffixes, between clauses */

#pragma D option quiet
#pragma D option bufsize=4m
#pragma D option aggsortkey
#pragma D option aggsortrev
#pragma D option aggsortpos=1
#pragma D option aggsize=1m
#pragma D option aggrate=2hz
#pragma D option switchrate=10hz
#pragma D option strsize=512
#pragma D option dynvarsize=16m
#pragma D option nspec=4
#pragma D option zdefs
#pragma D option defaultargs

syscall::read:entry
{
	@reads[execname, pid] = count();
}

#pragma D option destructive

END
{
	printa(@reads);
}
