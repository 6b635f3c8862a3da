/* dtx-args: -q -c '@TRIGGER@ getpid 1 fork-exec 1' */
/*
 * progenyof(pid): whether the current process is pid or one of its
 * descendants. In BEGIN (dtx itself): of $pid and init yes, of the trigger
 * ($target, dtx's child) and a pid that does not exist no. The trigger is
 * progeny of $target, $pid and init; the /bin/true it forks and execs is
 * progeny of $target too.
 */

BEGIN
{
	printf("dtx: $pid %d, init %d, $target %d, 2147483646 %d\n", progenyof($pid),
	    progenyof(1), progenyof($target), progenyof(2147483646));
}

syscall::getpid:entry
/pid == $target/
{
	printf("trigger: $target %d, $pid %d, init %d\n", progenyof($target),
	    progenyof($pid), progenyof(1));
}

syscall::exit_group:entry
/progenyof($target)/
{
	printf("%s exits: progeny of $target %d, is $target %d\n", execname,
	    progenyof($target), pid == $target);
}
