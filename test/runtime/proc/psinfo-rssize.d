/* dtx-args: -q -c '@TRIGGER@ getpid 1' */
/*
 * pr_rssize is the process's resident memory in kilobytes: something, and
 * less than its address space (pr_size). A kernel thread has neither.
 * xlate of a NULL task evaluates only the member asked for: pr_addr is 0.
 * test/kernel/variables/psinfo-rssize.d links here, to run this on the VM's
 * 6.1 kernel too, whose RSS counters are atomic longs, not per-CPU ones
 * (6.1 folds a thread's page counts into its process's only now and then,
 * as /proc shows them: a small process may show a few kilobytes).
 */

syscall::getpid:entry
/pid == $target/
{
	printf("resident: %d\n", curpsinfo->pr_rssize > 0);
	printf("within its size: %d\n", curpsinfo->pr_rssize < curpsinfo->pr_size);
	printf("pr_addr is the task: %d\n", curpsinfo->pr_addr == (uintptr_t)curthread);
	printf("NULL task's pr_addr: %d\n", xlate<psinfo_t>((struct task_struct *)NULL).pr_addr);
	exit(0);
}
