/* dtx-requires: btf */
/* dtx-args: -q -c '@TRIGGER@ sleep 1500' */
/* print() of a kernel struct read from memory whose contents are known: the
   struct timespec the trigger passes to nanosleep(2), copied in from user
   memory and shown with the kernel's own types. */

syscall::nanosleep:entry
/pid == $target/
{
	print(*(struct __kernel_timespec *)copyin(arg0, sizeof(struct __kernel_timespec)));
	exit(0);
}
