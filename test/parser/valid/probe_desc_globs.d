/* shell globs in probe description fields: *, ?, [abc], [a-z], ranges and several per field */
/* dtx-requires: kprobes fentry btf */

syscall::read*:entry
{
	@globs["read*"] = count();
}

syscall::?etpid:entry
{
	@globs["?etpid"] = count();
}

syscall::[rw]rite*:entry
{
	@globs["[rw]rite*"] = count();
}

syscall::*stat[a-z]*:return
{
	@globs["*stat[a-z]*"] = count();
}

sdt:sch?d::sched_*
{
	@globs["sch?d"] = count();
}

*:*:*:*
/0/
{
	@globs["*:*:*:*"] = count();
}

END
{
	printa(@globs);
}
