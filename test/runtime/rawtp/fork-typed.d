/* dtx-args: -q -c '@TRIGGER@ fork-exec 3' */
/* sched_process_fork(struct task_struct *parent, struct task_struct *child):
   members of kernel structs through the BTF-typed arguments. */
/* dtx-requires: btf */
rawtp:sched::sched_process_fork
/args[0]->tgid == $target/
{
	printf("%s %s %d %d\n", probename, stringof(args[1]->comm), args[0]->pid == pid,
	    args[1]->tgid != $target);
}
