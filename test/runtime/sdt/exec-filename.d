/* dtx-args: -q -c '@TRIGGER@ fork-exec 2' */
/* sched_process_exec's filename is a __data_loc string in the record;
   its pid field is the pid of the process that execs. */
sdt:sched::sched_process_exec
/ppid == $target/
{
	printf("%s %s %d\n", args[0], execname, args[1] == pid);
}
