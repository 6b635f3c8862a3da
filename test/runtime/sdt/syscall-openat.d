/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 1 fail-open 1' */
/* The syscalls group as sdt probes: every field is in the record as the
   format file says, __syscall_nr first; the syscall arguments are stored as
   unsigned 64-bit values (dfd AT_FDCWD is -100 only as an int). */
sdt:syscalls::sys_enter_openat
/pid == $target/
{
	printf("%s nr=%d dfd=%d path=%s\n", probename, args[0], (int)args[1],
	    copyinstr((uintptr_t)args[2]));
}

sdt:syscalls::sys_exit_openat
/pid == $target/
{
	printf("%s nr=%d ret=%d\n", probename, args[0], args[1]);
}
