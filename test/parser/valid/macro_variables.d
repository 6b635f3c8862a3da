/* macro variables in expressions: $1 and $3 as integers, $$1 $$2 $$3 as strings, $target, $pid, $ppid, $uid */

#pragma D option defaultargs

syscall::openat:entry
/pid == $target || pid == $1/
{
	@opens[execname] = count();
}

syscall::write:entry
/execname == $$2 && uid == $uid/
{
	@writers[pid, $$1] = sum(arg2);
}

BEGIN
{
	printf("dtx pid %d, parent %d, target %d, first arg %d\n", $pid, $ppid, $target, $1);
	limit = $3 * 2;
	name = $$3;
}

tick-1s
/++ticks >= $1/
{
	exit(0);
}
