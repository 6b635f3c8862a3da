/*
 * Constants of DTrace's proc.d: psinfo_t's data models (pr_dmodel) and the
 * si_code of a SIGCHLD (proc:::signal-* args[2]), with Linux's values.
 */

inline char PR_MODEL_ILP32 = 1;
inline char PR_MODEL_LP64 = 2;

inline int CLD_EXITED = 1;	/* the child exited */
inline int CLD_KILLED = 2;	/* killed by a signal */
inline int CLD_DUMPED = 3;	/* killed, and dumped core */
inline int CLD_TRAPPED = 4;	/* a traced child trapped */
inline int CLD_STOPPED = 5;	/* stopped */
inline int CLD_CONTINUED = 6;	/* continued */
