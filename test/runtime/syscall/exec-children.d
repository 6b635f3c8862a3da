/* dtx-args: -q -c '@TRIGGER@ fork-exec 3' */
/* execve returns in each child, now running /bin/true. */
syscall::execve:return
/ppid == $target/
{
	@[execname, arg0] = count();
}
