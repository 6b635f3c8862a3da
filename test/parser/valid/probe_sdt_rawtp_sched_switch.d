/* tracepoints through sdt and rawtp: sdt:sched::sched_switch, rawtp:sched::sched_switch, tracepoint alias */

sdt:sched::sched_switch
{
	@switches[stringof(args[0])] = count();	/* prev_comm */
}

rawtp:sched::sched_switch
{
	@raw[cpu] = count();
}

tracepoint:sched::sched_process_exec
{
	printf("%s exec %s\n", execname, stringof(args[0]));
}

END
{
	printa(@switches);
	printa(@raw);
}
