/*
 * Processes and threads as DTrace's procfs.d shows them: psinfo_t and
 * lwpsinfo_t (Solaris' proc(4) structures, with dtrace-utils' members),
 * filled from the kernel's struct task_struct, and curpsinfo/curlwpsinfo.
 * Linux has no zones, projects, tasks or pools: those members are 0.
 * Members dtrace declares but does not fill (pr_flag, pr_pctcpu, pr_pctmem,
 * pr_time, pr_ctime, the padding) are declared here too and not translated:
 * using one is D_XLATE_NOCONV, as in dtrace.
 */

typedef struct timestruc {
	time_t tv_sec;
	long tv_nsec;
} timestruc_t;

typedef struct lwpsinfo {
	int pr_flag;		/* flags of the thread (none on Linux) */
	id_t pr_lwpid;		/* thread ID */
	uintptr_t pr_addr;	/* its struct task_struct */
	uintptr_t pr_wchan;	/* wait address (none on Linux) */
	char pr_stype;		/* synchronization object type (SOBJ_NONE) */
	char pr_state;		/* SSLEEP, SRUN, SZOMB, SSTOP, SIDL, SONPROC, SWAIT */
	char pr_sname;		/* the state's letter */
	char pr_nice;		/* nice value + 20 */
	short pr_syscall;	/* system call number (not kept: 0) */
	char pr_oldpri;		/* the priority, as pr_pri */
	char pr_cpu;		/* CPU usage (not kept: 0) */
	int pr_pri;		/* the kernel's priority (lower runs first) */
	ushort_t pr_pctcpu;	/* % of recent CPU time (not kept: 0) */
	ushort_t pr_pad;
	timestruc_t pr_start;	/* when the thread started, since boot */
	timestruc_t pr_time;	/* its CPU time, user and system */
	char pr_clname[8];	/* scheduling class: TS, RT, IA, DL */
	char pr_name[16];	/* the thread's name */
	processorid_t pr_onpro;	/* the CPU it last ran on */
	processorid_t pr_bindpro; /* the CPU it is bound to (PBIND_NONE) */
	psetid_t pr_bindpset;	/* its processor set (PS_NONE) */
	int pr_lgrp;		/* home locality group (not translated) */
	int pr_filler[4];
} lwpsinfo_t;

typedef struct psinfo {
	int pr_flag;		/* process flags (not translated) */
	int pr_nlwp;		/* threads */
	pid_t pr_pid;
	pid_t pr_ppid;
	pid_t pr_pgid;
	pid_t pr_sid;
	uid_t pr_uid;
	uid_t pr_euid;
	gid_t pr_gid;
	gid_t pr_egid;
	uintptr_t pr_addr;	/* the struct task_struct translated */
	size_t pr_size;		/* its address space, in kilobytes */
	size_t pr_rssize;	/* its resident pages, in kilobytes */
	size_t pr_pad1;
	dev_t pr_ttydev;	/* controlling terminal (MKDEV(major, minor)), or 0 */
	ushort_t pr_pctcpu;	/* % of recent CPU time (not translated) */
	ushort_t pr_pctmem;	/* % of memory (not translated) */
	timestruc_t pr_start;	/* when the process started, since boot */
	timestruc_t pr_time;	/* CPU time (not translated) */
	timestruc_t pr_ctime;	/* children's CPU time (not translated) */
	char pr_fname[16];	/* its name (comm) */
	char pr_psargs[80];	/* the first characters of its arguments */
	int pr_argc;
	uintptr_t pr_argv;	/* where its arguments are, in its memory */
	uintptr_t pr_envp;	/* where its environment is */
	int pr_wstat;		/* its wait status, once it exits */
	char pr_dmodel;		/* PR_MODEL_LP64 */
	char pr_pad2[3];
	taskid_t pr_taskid;
	projid_t pr_projid;
	int pr_nzomb;		/* zombie threads (not kept: 0) */
	int pr_poolid;
	zoneid_t pr_zoneid;
	id_t pr_contract;
	int pr_filler[1];
	lwpsinfo_t pr_lwp;	/* the current (or leading) thread */
} psinfo_t;

/*
 * Resident pages of kind K (MM_FILEPAGES 0, MM_ANONPAGES 1, MM_SHMEMPAGES 3)
 * in address space M. The kernel counts them in an array of atomic longs
 * before 6.2 and of per-CPU counters (read here as their shared total, as
 * the kernel's own get_mm_counter() does) from 6.2 on.
 */
inline long _dtx_rss_pages[struct mm_struct *M, int K] =
	*(long *)((uintptr_t)&M->rss_stat + (sizeof (M->rss_stat) == 4 * sizeof (long) ?
	    K * sizeof (long) :
	    K * sizeof (struct percpu_counter) + offsetof(struct percpu_counter, count)));

/* Nanoseconds as a timestruc_t. */
translator timestruc_t < uint64_t N > {
	tv_sec = N / 1000000000;
	tv_nsec = N % 1000000000;
};

translator lwpsinfo_t < struct task_struct *T > {
	pr_flag = 0;
	pr_lwpid = T->pid;
	pr_addr = (uintptr_t)T;
	pr_wchan = 0;
	pr_stype = 0;
	pr_state = T->exit_state & 0x30 ? 3 :			/* SZOMB */
	    T->__state & 0xc ? 4 :				/* SSTOP */
	    T->__state & 0x3 ? 1 :				/* SSLEEP */
	    T->__state == 0 && T->on_cpu ? 6 :			/* SONPROC */
	    T->__state == 0 ? 2 : 7;				/* SRUN, SWAIT */
	pr_sname = T->exit_state & 0x30 ? 'Z' :
	    T->__state & 0xc ? 'T' :
	    T->__state & 0x3 ? 'S' :
	    T->__state == 0 && T->on_cpu ? 'O' :
	    T->__state == 0 ? 'R' : 'W';
	pr_nice = T->static_prio - 100;
	pr_syscall = 0;
	pr_oldpri = T->prio;
	pr_cpu = 0;
	pr_pri = T->prio;
	pr_pctcpu = 0;
	pr_start = xlate <timestruc_t> (T->start_time);
	pr_time = xlate <timestruc_t> (T->utime + T->stime);
	pr_clname = T->policy == 1 || T->policy == 2 ? "RT" : T->policy == 5 ? "IA" :
	    T->policy == 6 ? "DL" : "TS";
	pr_name = T->comm;
	pr_onpro = T->thread_info.cpu;
	pr_bindpro = -1;
	pr_bindpset = -1;
};

translator psinfo_t < struct task_struct *T > {
	pr_nlwp = T->signal->nr_threads;
	pr_pid = T->tgid;
	pr_ppid = T->real_parent->tgid;
	pr_pgid = T->signal->pids[PIDTYPE_PGID]->numbers[0].nr;
	pr_sid = T->signal->pids[PIDTYPE_SID]->numbers[0].nr;
	pr_uid = T->real_cred->uid.val;
	pr_euid = T->real_cred->euid.val;
	pr_gid = T->real_cred->gid.val;
	pr_egid = T->real_cred->egid.val;
	pr_addr = (uintptr_t)T;
	pr_ttydev = T->signal->tty ? (dev_t)T->signal->tty->driver->major << 20 |
	    (T->signal->tty->driver->minor_start + T->signal->tty->index) : 0;
	pr_start = xlate <timestruc_t> (T->group_leader->start_time);
	pr_fname = T->comm;
	pr_psargs = _dtx_psargs(T);
	pr_argc = _dtx_argc(T);
	pr_argv = T->mm ? T->mm->arg_start : 0;
	pr_envp = T->mm ? T->mm->env_start : 0;
	pr_size = T->mm ? T->mm->total_vm * 4 : 0;
	pr_rssize = T->mm ? (_dtx_rss_pages[T->mm, 0] + _dtx_rss_pages[T->mm, 1] +
	    _dtx_rss_pages[T->mm, 3]) * 4 : 0;
	pr_wstat = T->exit_code;
	pr_dmodel = 2;
	pr_taskid = 0;
	pr_projid = 0;
	pr_nzomb = 0;
	pr_poolid = 0;
	pr_zoneid = 0;
	pr_contract = 0;
	pr_lwp = xlate <lwpsinfo_t> (T);
};

inline psinfo_t *curpsinfo = xlate <psinfo_t *> (curthread);
inline lwpsinfo_t *curlwpsinfo = xlate <lwpsinfo_t *> (curthread);
