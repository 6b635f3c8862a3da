/* comma-separated probe description lists, on one line and spread across lines */

syscall::read:entry, syscall::write:entry
{
	@rw[probefunc] = count();
}

syscall::openat:entry,
syscall::open:entry,
syscall::creat:entry
/execname != "dtx"/
{
	@opens[execname, probefunc] = count();
}

syscall::pread64:entry
,
syscall::pwrite64:entry
{
	@rw[probefunc] = count();
}

profile:::tick-5s,
END
{
	printa(@rw);
	printa(@opens);
}
