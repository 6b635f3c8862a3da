/* printf with many conversions, flags, widths, precisions and length modifiers */
/* dtx-args: -c '@TRIGGER@ getpid 1' */

#pragma D option quiet

syscall::openat:entry
{
	printf("%d %i %u %x %X %o %c %s %p %%\n", pid, tid, uid, arg2, arg2, arg3, 'x', execname, arg1);
	printf("[%5d] [%-5d] [%05d] [%+d] [% d] [%#x] [%#o]\n", pid, pid, pid, pid, pid, arg2, arg3);
	printf("[%20s] [%-20s] [%.3s] [%*d] [%-*.*s]\n", execname, execname, execname, 8, pid, 10, 4, execname);
	printf("%ld %lu %lld %llu %llx %hd\n", arg0, (unsigned long)arg1, arg2, (unsigned long long)arg3, arg4, (short)arg0);
	printf("%a %A\n", caller, ucaller);
	printf("%Y %s\n", walltimestamp, copyinstr(arg1));
	printf("%-16s %8d %16x%s", execname, pid, arg1, "\n");
	printf("no conversions at all\n");
}
