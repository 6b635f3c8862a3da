/*
 * The kinds of fault that dtrace:::ERROR reports in arg4, as DTrace's
 * dtrace.d names them; dtx reports the same numbers (FaultKind in
 * libtrace/program_description.h). DTRACEFLT_BADINDEX, an array index out of
 * bounds, is dtx's own.
 */

inline int DTRACEFLT_UNKNOWN = 0;	/* unknown fault */
inline int DTRACEFLT_BADADDR = 1;	/* bad address */
inline int DTRACEFLT_BADALIGN = 2;	/* bad alignment */
inline int DTRACEFLT_ILLOP = 3;		/* illegal operation */
inline int DTRACEFLT_DIVZERO = 4;	/* divide by zero */
inline int DTRACEFLT_NOSCRATCH = 5;	/* out of scratch space */
inline int DTRACEFLT_KPRIV = 6;		/* kernel privilege violation */
inline int DTRACEFLT_UPRIV = 7;		/* user privilege violation */
inline int DTRACEFLT_TUPOFLOW = 8;	/* tuple stack overflow */
inline int DTRACEFLT_BADSTACK = 9;	/* bad stack */
inline int DTRACEFLT_BADINDEX = 10;	/* array index out of bounds (dtx) */
