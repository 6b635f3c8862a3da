/* dtx-args: -q -c '@TRIGGER@ sleep 50 sleep 50' */
/*
 * The trigger sleeps twice: each time it goes off CPU (off-cpu, in its own
 * context, with the next thread's lwpsinfo_t and psinfo_t) as a sleeper
 * (sleep, its state SSLEEP), and a timer wakes it (wakeup, with the
 * trigger's lwpsinfo_t and psinfo_t, in the waker's context). Other sleeps
 * (while dtx holds it before exec) add to the counts.
 */

sched:::off-cpu
/pid == $target && curlwpsinfo->pr_state == SSLEEP && curlwpsinfo->pr_sname == 'S'/
{
	off += args[0]->pr_lwpid != tid && args[1]->pr_pid != pid;
}

sched:::sleep
/pid == $target/
{
	sleeps++;
}

sched:::wakeup
/args[1]->pr_pid == $target && args[0]->pr_lwpid == $target && args[1]->pr_fname == "dtx-trigger"/
{
	wakeups++;
}

END
{
	printf("off-cpu while sleeping, to another thread: %s\n", off >= 2 ? "yes" : "no");
	printf("sleep: %s\n", sleeps >= 2 ? "yes" : "no");
	printf("wakeup of the trigger: %s\n", wakeups >= 2 ? "yes" : "no");
}
