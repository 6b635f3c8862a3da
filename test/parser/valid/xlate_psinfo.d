/* xlate used directly in expressions: members of a translated pointer and of a translated struct, on curthread */

typedef struct my_psinfo {
	int pr_pid;
	int pr_ppid;
	string pr_fname;
} my_psinfo_t;

translator my_psinfo_t < struct task_struct *T > {
	pr_pid = T->tgid;
	pr_ppid = T->real_parent->tgid;
	pr_fname = stringof(T->comm);
};

syscall::execve:return
{
	this->ps = xlate <my_psinfo_t *>(curthread);
	printf("%d %d %s\n", this->ps->pr_pid, xlate <my_psinfo_t> (curthread).pr_ppid, this->ps->pr_fname);
}
