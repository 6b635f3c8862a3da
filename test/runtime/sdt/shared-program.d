/* dtx-args: -q -c '@TRIGGER@ getpid 4 fork-exec 2' */
/* Every sys_exit_* event has the same fields at the same offsets, so the
   two probes share one program; the bpf cookie of each attachment says
   which probe fired. */
sdt:syscalls::sys_exit_getpid,
sdt:syscalls::sys_exit_wait4
/pid == $target/
{
	@[probename, args[0]] = count();
}
