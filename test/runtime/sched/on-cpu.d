/* dtx-args: -q -c '@TRIGGER@ sleep 30 sleep 30 sleep 30' */
/*
 * sched:::on-cpu fires in the thread leaving the CPU, but on behalf of the
 * one coming on: pid, tid, execname, uid, curthread, curpsinfo and self->
 * name the trigger as it comes back from each sleep, so that the time it
 * spends on the CPU is measured from on-cpu to off-cpu in its own self->.
 */

sched:::on-cpu
/pid == $target && execname == "dtx-trigger"/
{
	self->on = timestamp;
	ok += tid == pid && curthread->tgid == pid && curpsinfo->pr_pid == pid &&
	    curlwpsinfo->pr_lwpid == tid && uid == curpsinfo->pr_uid;
	on++;
}

sched:::off-cpu
/self->on/
{
	ran += timestamp > self->on;
	self->on = 0;
}

END
{
	printf("on-cpu at least 3 times: %s\n", on >= 3 ? "yes" : "no");
	printf("its built-ins name the trigger each time: %s\n", ok == on ? "yes" : "no");
	printf("self-> carried to off-cpu: %s\n", ran >= 3 ? "yes" : "no");
}
