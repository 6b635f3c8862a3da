/* dtx-args: -q */
/* dtx-requires: kallsyms_all btf */
/*
 * Kernel variables: `jiffies (declared with extern, as BTF has no type for
 * it) read twice a tick apart, and members of `init_task, the idle task
 * (typed as the kernel's struct task_struct).
 */

extern unsigned long jiffies;
extern struct task_struct init_task;

BEGIN
{
	start = `jiffies;
	printf("%s pid %d, its address is &`init_task: %d\n", `init_task.comm, `init_task.pid,
	    (uint64_t)&`init_task == (uint64_t)`init_task.group_leader);
}

tick-100ms
{
	printf("jiffies advanced: %d\n", `jiffies > start);
	exit(0);
}
