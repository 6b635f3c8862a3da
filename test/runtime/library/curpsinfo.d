/* dtx-args: -q -c '@TRIGGER@ getpid 1' */
/*
 * curpsinfo, curlwpsinfo and execargs describe the process and thread that
 * fire: the trigger, its arguments as ps(1) shows them, its ids, its state
 * (on the CPU while it makes the system call).
 */

syscall::getpid:entry
/pid == $target/
{
	printf("pr_psargs: %s\n", strjoin(basename(curpsinfo->pr_psargs), ""));
	printf("execargs matches pr_psargs: %d, pr_argc %d\n", execargs == curpsinfo->pr_psargs,
	    curpsinfo->pr_argc);
	printf("pr_fname %s, pr_pid %d, pr_ppid %d, pr_uid %d, pr_gid %d, pr_nlwp %d\n",
	    curpsinfo->pr_fname, curpsinfo->pr_pid == pid, curpsinfo->pr_ppid == ppid,
	    curpsinfo->pr_uid == uid, curpsinfo->pr_gid == gid, curpsinfo->pr_nlwp);
	printf("pr_lwpid %d, pr_state %d (SONPROC %d), pr_sname %c, pr_name %s, pr_onpro %d\n",
	    curlwpsinfo->pr_lwpid == tid, curlwpsinfo->pr_state, SONPROC, curlwpsinfo->pr_sname,
	    curlwpsinfo->pr_name, curlwpsinfo->pr_onpro == cpu);
	printf("pr_start before now: %d, pr_dmodel LP64: %d, zonename %s\n",
	    curpsinfo->pr_start.tv_sec * 1000000000 + curpsinfo->pr_start.tv_nsec < timestamp,
	    curpsinfo->pr_dmodel == PR_MODEL_LP64, zonename);
}
