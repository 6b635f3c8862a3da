/* kernel symbols through the backquote scoping operator: `sym, module`sym, and members and addresses of them */

BEGIN
{
	start_jiffies = vmlinux`jiffies;
	printf("max_pfn %d\n", `max_pfn);
	printf("jiffies %d\n", vmlinux`jiffies);
	this->hz = `loops_per_jiffy;
	this->addr = &`init_task;
	this->comm = stringof(`init_task.comm);
	this->pid = vmlinux`init_task.pid;
	exit(0);
}

profile-1s
{
	@j = max(`jiffies - start_jiffies);
}
