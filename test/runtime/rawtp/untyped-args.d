/* dtx-args: -q -c '@TRIGGER@ fork-exec 2' */
/* argN are the tracepoint's raw arguments: sched_process_exec's arg1 is
   old_pid, the pid of the process that execs. */
rawtp:sched::sched_process_exec
/ppid == $target/
{
	printf("%d %d %d\n", arg0 != 0, arg1 == pid, arg2 != 0);
}
