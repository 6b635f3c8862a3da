/* dtx-args: -q */
/* sched.d: thread states and synchronization object types. */

BEGIN
{
	printf("%d %d %d %d %d %d %d\n", SSLEEP, SRUN, SZOMB, SSTOP, SIDL,
	    SONPROC, SWAIT);
	printf("%d %d %d %d %d %d %d %d\n", SOBJ_NONE, SOBJ_MUTEX, SOBJ_RWLOCK,
	    SOBJ_CV, SOBJ_SEMA, SOBJ_USER, SOBJ_USER_PI, SOBJ_SHUTTLE);
	printf("%s\n", curlwpsinfo->pr_state == SONPROC ? "on a CPU" : "not");
	printf("%s\n", curlwpsinfo->pr_stype == SOBJ_NONE ? "no object" : "object");
	exit(0);
}
