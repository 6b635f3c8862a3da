/* dtx-args: -q -c '@TRIGGER@ getpid 1' */
/*
 * The runtime test proc/psinfo-rssize on the VM's kernel, which keeps RSS in
 * atomic counters (before 6.2) where the host's has per-CPU ones: pr_rssize
 * is the resident memory in kilobytes, something and less than pr_size.
 * (6.1 folds a thread's page counts into its process's only now and then,
 * as /proc does: a small process may show a few kilobytes.)
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
