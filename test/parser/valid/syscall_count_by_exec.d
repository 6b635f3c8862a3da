/* the classic one-liner: count system calls by process name */

syscall:::entry
{
	@[execname] = count();
}
