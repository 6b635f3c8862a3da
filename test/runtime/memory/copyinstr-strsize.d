/* dtx-args: -q -x strsize=8 -c '@TRIGGER@ fail-open 1' */
/* copyinstr() copies at most strsize characters and a NUL, whatever n says. */

syscall::openat:entry
/pid == $target/
{
	printf("[%s] [%s] [%s]\n", copyinstr(arg1), copyinstr(arg1, 3), copyinstr(arg1, 20));
}
