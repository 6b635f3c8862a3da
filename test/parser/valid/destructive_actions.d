/* destructive actions (need -w or the destructive option): system, raise, stop, copyout, copyoutstr */
/* dtx-args: -c '@TRIGGERS@/dtx-funcs' */
/* dtx-requires: uprobes */

#pragma D option destructive

syscall::openat:entry
/execname == "victim"/
{
	raise(SIGSTOP);
	system("echo %s opened a file: pid %d", execname, pid);
}

pid$target:a.out:main:entry
{
	stop();
	system("gdb -p %d", pid);
}

syscall::write:entry
/execname == "noisy" && arg2 >= 4/
{
	copyout("DTX!", arg1, 4);
	copyoutstr("quiet", arg1, 6);
}
