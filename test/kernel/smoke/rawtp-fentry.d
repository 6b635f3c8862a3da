/* dtx-args: -q -c '@TRIGGER@ fork-exec 3' */
/* dtx-requires: fentry btf */
/* Runs only where the kernel loads and attaches fentry programs (the VM):
   proves run-test's fentry check says yes there. BTF-typed raw tracepoint
   arguments of sched_process_fork(parent, child), read in the guest's own
   kernel types. */
rawtp:sched::sched_process_fork
/args[0]->tgid == $target/
{
	@[probename, stringof(args[1]->comm), args[1]->tgid != $target] = count();
}
