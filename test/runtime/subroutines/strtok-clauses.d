/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 1' */
/*
 * The scan strtok(NULL, ...) continues is the last one this firing started,
 * in any clause: here openat's path, split over two clauses.
 */

syscall::openat:entry
/pid == $target/
{
	printf("%s\n", strtok(copyinstr(arg1), "/"));
}

syscall::openat:entry
/pid == $target/
{
	printf("%s\n", strtok(NULL, "/"));
}
