/* dtx-args: -q -c '@TRIGGER@ fork-exec 3' */
/* sys_enter(struct pt_regs *regs, long id) and sched_process_fork(parent,
   child) both pass two arguments: where raw tracepoints take bpf cookies
   (Linux 6.10) one program serves both; before, each has its own. Either
   way each firing runs its own probe's clause. 56 is x86-64's clone. */
rawtp:raw_syscalls::sys_enter
/pid == $target && args[1] == 56/
{
	@[probename] = count();
}

rawtp:sched::sched_process_fork
/pid == $target/
{
	@[probename] = count();
}
