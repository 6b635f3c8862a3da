/* dtx-args: -q */
/* proc.d: data models and SIGCHLD's codes. */

BEGIN
{
	printf("%d %d\n", PR_MODEL_ILP32, PR_MODEL_LP64);
	printf("%d %d %d %d %d %d\n", CLD_EXITED, CLD_KILLED, CLD_DUMPED,
	    CLD_TRAPPED, CLD_STOPPED, CLD_CONTINUED);
	printf("%s\n", curpsinfo->pr_dmodel == PR_MODEL_LP64 ? "LP64" : "ILP32");
	exit(0);
}
