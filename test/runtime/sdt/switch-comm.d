/* dtx-args: -q -c '@TRIGGER@ sleep 20' */
/* sched_switch's prev_comm is a char [16] array in the record. The task
   switching out is the current one, so its comm is execname; the first
   switch after the exec (the sleep) is printed. */
int printed;

sdt:sched::sched_switch
/args[1] == $target && execname == "dtx-trigger" && !printed/
{
	printed = 1;
	printf("%s %s %d\n", args[0], execname, args[1] == pid);
}
