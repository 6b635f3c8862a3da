/* dtx-args: -q -o /dev/stderr -c '@TRIGGER@ getpid 1' */
/*
 * stack() in ERROR, after a fault in a clause inlined into its raw
 * tracepoint program, starts where the kernel fired the tracepoint too:
 * ERROR's clause runs below dtx_error's frame. The syscall probe, which
 * never fires here, attaches a second program to sys_enter, so that the
 * kernel's __traceiter_sys_enter shows first whatever else runs.
 */

sdt:raw_syscalls::sys_enter
/pid == $target && args[0] == 39/
{
	trace(*(int *)0);
}

syscall::getppid:entry
/pid == $target/
{
}

ERROR
{
	stack(2);
}
