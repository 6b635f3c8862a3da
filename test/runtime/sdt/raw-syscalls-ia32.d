/* dtx-args: -q -c '@TRIGGER@ int80-getpid 2' */
/* dtx-requires: ia32 */
/*
 * A 32-bit system call (i386's getpid, 20, through int $0x80) on
 * sdt:raw_syscalls: args[0] is i386's number and args[1] the arguments in
 * i386's registers (%ebx, %ecx, %edx, %esi, %edi, %ebp: 11 .. 66 here), as
 * the kernel's record has them.
 */

sdt:raw_syscalls::sys_enter
/pid == $target && args[0] == 20/
{
	printf("enter %d: %d %d %d %d %d %d\n", args[0], args[1][0], args[1][1], args[1][2],
	    args[1][3], args[1][4], args[1][5]);
}

sdt:raw_syscalls::sys_exit
/pid == $target && args[0] == 20/
{
	printf("exit %d: returned its pid: %d\n", args[0], args[1] == pid);
}
