/*
 * psinfo_t declares members that nothing fills on Linux (pr_pctcpu, the
 * process's CPU times): reading one is a compile-time error naming it.
 */
BEGIN
{
	trace(curpsinfo->pr_pctcpu);
	trace(curpsinfo->pr_time.tv_sec);
	trace(curlwpsinfo->pr_lgrp);
	exit(0);
}
