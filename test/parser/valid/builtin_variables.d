/* built-in variables: identity, time, probe naming, arguments, errno, curthread, stack depths and uregs */

syscall::read:return
{
	printf("%s %d %d %d %d %d\n", execname, pid, tid, ppid, uid, gid);
	printf("%d %d %d %d\n", timestamp, vtimestamp, walltimestamp, cpu);
	printf("%s:%s:%s:%s\n", probeprov, probemod, probefunc, probename);
	printf("%d %d %d %d %d\n", arg0, arg1, arg2, arg3, arg4);
	printf("%d %d %d %d %d\n", arg5, arg6, arg7, arg8, arg9);
	printf("%d %p %d %d\n", errno, curthread, stackdepth, ustackdepth);
	printf("%p %p\n", uregs[R_PC], uregs[R_SP]);
}

sdt:sched::sched_wakeup
{
	@wakeups[stringof(args[0]), args[1]] = count();	/* comm, pid */
}
