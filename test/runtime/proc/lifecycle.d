/* dtx-args: -q -c '@TRIGGER@ threads 2 exec-missing 1 children-exit 3 fork-exec 1' */
/*
 * The proc provider through the life of the trigger's threads and children:
 * each probe with its arguments, counted (the children run on any CPU, so
 * their events interleave with the parent's).
 */

proc:::lwp-create
/pid == $target/
{
	@[strjoin("lwp-create, new thread of this process: ",
	    args[0]->pr_lwpid != tid && args[1]->pr_pid == pid ? "yes" : "no")] = count();
}

proc:::lwp-start
/pid == $target && tid != pid/
{
	@["lwp-start in the new thread"] = count();
}

proc:::lwp-exit
/pid == $target && tid != pid/
{
	@["lwp-exit of a thread"] = count();
}

proc:::create
/pid == $target/
{
	@[strjoin("create, child of this process: ",
	    args[0]->pr_ppid == pid && args[0]->pr_pid != pid ? "yes" : "no")] = count();
}

proc:::start
/ppid == $target/
{
	@[strjoin("start in the child, its first thread: ", tid == pid ? "yes" : "no")] = count();
}

proc:::exec
/ppid == $target/
{
	@[strjoin("exec ", args[0])] = count();
}

proc:::exec-failure
/ppid == $target/
{
	@[strjoin("exec-failure ", lltostr(args[0]))] = count();
}

proc:::exec-success
/ppid == $target/
{
	@[strjoin("exec-success ", execname)] = count();
}

proc:::exit
/ppid == $target/
{
	@[strjoin(strjoin("exit, reason ", lltostr(args[0])),
	    arg0 == args[0] ? ", arg0 too" : ", arg0 differs")] = count();
}

END
{
	printa("%-50s %@d\n", @);
}
