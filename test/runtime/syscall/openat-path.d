/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 2 fail-open 1' */
/* arg1 of openat is the user address of the path. */
syscall::openat:entry
/pid == $target/
{
	printf("%s %s\n", probefunc, copyinstr(arg1));
}
