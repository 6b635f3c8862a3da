/* stringof applied with and without parentheses, to members, casts and array elements */
/* dtx-requires: fbt btf */

sdt:sched::sched_process_fork
{
	printf("%s forked %s\n", stringof(args[0]->parent_comm), stringof args[0]->child_comm);
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
