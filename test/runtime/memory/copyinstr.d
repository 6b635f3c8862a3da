/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 1 fail-open 1' */
/*
 * copyinstr() of openat's path, whole and limited to n bytes (a NUL ends
 * the copy at n, and an n beyond the string changes nothing).
 */

syscall::openat:entry
/pid == $target/
{
	printf("[%s] [%s] [%s] [%s]\n", copyinstr(arg1), copyinstr(arg1, 4),
	    copyinstr(arg1, 1), copyinstr(arg1, 100));
}
