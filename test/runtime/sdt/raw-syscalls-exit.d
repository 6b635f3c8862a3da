/* dtx-args: -q -c '@TRIGGER@ fail-open 2 getpid 1' */
/*
 * sdt:raw_syscalls::sys_exit on the raw tracepoint: args[0] the call's
 * number, args[1] its return value (both long), errno set from it.
 */

sdt:raw_syscalls::sys_exit
/pid == $target && args[0] == 257/
{
	printf("openat returned %d, errno %d\n", args[1], errno);
}

sdt:raw_syscalls::sys_exit
/pid == $target && args[0] == 39/
{
	printf("getpid returned its pid: %d, errno %d\n", args[1] == pid, errno);
}
