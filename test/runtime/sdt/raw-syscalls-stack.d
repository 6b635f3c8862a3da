/* dtx-args: -q -o /dev/stderr -c '@TRIGGER@ getpid 1' */
/*
 * stack() on a raw tracepoint starts where the kernel fired it, whatever
 * frames the clause has: inlined into its program (the sdt program runs
 * one clause, from one place) or called from it (the syscall program's
 * clause, called from the case of each of its two probes). Two programs
 * are attached to sys_enter, so the kernel's __traceiter_sys_enter shows
 * first. The output goes to stderr (-o), where the frames' offsets are
 * matched by regular expressions.
 */

sdt:raw_syscalls::sys_enter
/pid == $target && args[0] == 39/
{
	stack(2);
}

syscall::getpid:entry,
syscall::getppid:entry
/pid == $target/
{
	stack(2);
}
