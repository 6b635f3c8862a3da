/* dtx-args: -q -x stackformat=folded -c '@TRIGGER@ ustack 3 sleep 20' */
/*
 * stackformat=folded: a stack on one line, root first, frames joined by
 * ';'. An aggregation keyed by a stack prints `frames count` (other key
 * fields as frames, in key order) with no blank lines; ustack() as an
 * action prints a newline, then the line; printf's %k the line alone.
 */

syscall::getpid:entry
/pid == $target/
{
	@[ustack()] = count();
	@named[execname, ustack(2)] = sum(2);
}

syscall::getpid:entry
/pid == $target && !shown/
{
	shown = 1;
	ustack();
	printf("[%k]\n", ustack(2));
}
