/* dtx-args: -q -c '@TRIGGER@ fork-exec 2' */
/* sched_process_exec(struct task_struct *p, pid_t old_pid,
   struct linux_binprm *bprm), typed from vmlinux BTF. */
/* dtx-requires: btf */
rawtp:sched::sched_process_exec
/ppid == $target/
{
	printf("%s:%s:%s:%s %d %d %s\n", probeprov, probemod, probefunc, probename,
	    args[0]->pid == pid, args[1] == pid, stringof(args[2]->filename));
}
