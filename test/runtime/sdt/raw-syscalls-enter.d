/* dtx-args: -q -c '@TRIGGER@ ustack 2 open /etc/hostname 1' */
/*
 * sdt:raw_syscalls::sys_enter runs on the raw tracepoint, and its args[]
 * are still the event's record as its format file lays it out: args[0] the
 * call's number (long), args[1] its six arguments (unsigned long [6]). The
 * trigger's ustack calls getpid with %rdi .. %r9 set to 1 .. 6.
 */

sdt:raw_syscalls::sys_enter
/pid == $target && args[0] == 39/
{
	printf("getpid %d: %d %d %d %d %d %d (sizes %d %d)\n", args[0], args[1][0], args[1][1],
	    args[1][2], args[1][3], args[1][4], args[1][5], sizeof (args[0]), sizeof (args[1]));
}

sdt:raw_syscalls::sys_enter
/pid == $target && args[0] == 257/
{
	printf("openat %s\n", copyinstr(args[1][1]));
}
