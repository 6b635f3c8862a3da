/*
 * Thread states (lwpsinfo_t's pr_state) and synchronization object types
 * (pr_stype), as DTrace's sched.d names them.
 */

inline char SSLEEP = 1;		/* sleeping */
inline char SRUN = 2;		/* runnable */
inline char SZOMB = 3;		/* exited, not yet reaped */
inline char SSTOP = 4;		/* stopped */
inline char SIDL = 5;		/* being created */
inline char SONPROC = 6;	/* running on a CPU */
inline char SWAIT = 7;		/* waiting to be runnable */

inline int SOBJ_NONE = 0;
inline int SOBJ_MUTEX = 1;
inline int SOBJ_RWLOCK = 2;
inline int SOBJ_CV = 3;
inline int SOBJ_SEMA = 4;
inline int SOBJ_USER = 5;
inline int SOBJ_USER_PI = 6;
inline int SOBJ_SHUTTLE = 7;

/*
 * The CPU a probe fires on (curcpu). Linux has no processor sets, so
 * cpu_pset is 0 as in dtrace-utils; cpu_chip is the CPU's physical package
 * and cpu_lgrp, Solaris's locality group, its NUMA node.
 */
typedef int chipid_t;
typedef int lgrp_id_t;

typedef struct cpuinfo {
	processorid_t cpu_id;
	psetid_t cpu_pset;
	chipid_t cpu_chip;
	lgrp_id_t cpu_lgrp;
} cpuinfo_t;

inline psetid_t pset = curcpu->cpu_pset;
inline chipid_t chip = curcpu->cpu_chip;
inline lgrp_id_t lgrp = curcpu->cpu_lgrp;
