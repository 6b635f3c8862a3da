/* stringof applied with and without parentheses, to members, casts and array elements */
/* dtx-requires: fbt btf */

sdt:sched::sched_process_fork
{
	/* parent_comm, child_comm: sdt args[] are the event's fields */
	printf("%s forked %s\n", stringof(args[0]), stringof args[2]);
}

fbt::do_unlinkat:entry
{
	this->name = (struct filename *)arg1;
	@unlinks[stringof(this->name->name)] = count();
}

syscall::openat:entry
{
	self->path = stringof(copyin(arg1, 32));
	trace(stringof(curthread->comm));
}
