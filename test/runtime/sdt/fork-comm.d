/* dtx-args: -q -c '@TRIGGER@ fork-exec 3' */
/* sched_process_fork's fields: parent_comm, parent_pid, child_comm,
   child_pid. The comms are __data_loc strings on newer kernels and
   char [16] arrays on older ones; both read as strings. */
sdt:sched::sched_process_fork
/args[1] == $target/
{
	printf("%s %s -> %s %d\n", probename, args[0], args[2], args[3] != args[1]);
}
