/* dtx-args: -q -c '@TRIGGER@ fork-exec 1' */
/* tracepoint: is another name of the sdt provider: the probe it matches
   is the sdt probe, and says so. */
tracepoint:sched::sched_process_exec
/ppid == $target/
{
	printf("%s:%s:%s:%s %s\n", probeprov, probemod, probefunc, probename, args[0]);
}
