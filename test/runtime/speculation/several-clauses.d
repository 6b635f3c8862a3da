/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 1 write 3 open /etc/hostname 1' */
/*
 * One speculation filled by clauses of different probes (openat, write,
 * close) across many firings, committed by the last: its records print in
 * the order they were traced.
 */

BEGIN
{
	spec = 0;
	n = 0;
}

syscall::openat:entry
/pid == $target && !spec/
{
	spec = speculation();
}

syscall::openat:entry,
syscall::write:entry,
syscall::close:entry
/pid == $target && spec/
{
	speculate(spec);
	printf("%s %d\n", probefunc, ++n);
}

syscall::exit_group:entry
/pid == $target/
{
	commit(spec);
}
