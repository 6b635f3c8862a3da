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
