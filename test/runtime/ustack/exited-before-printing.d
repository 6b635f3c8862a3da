/* dtx-args: -q -c 'sh exited-before-printing.sh @TRIGGER@' */
/*
 * A process whose user stacks are printed at the end, half a second after it
 * exited: its frames are still named, because the first stack it recorded
 * told dtx to read its modules while it lived.
 */

BEGIN
{
	exited = 0;
}

syscall::getpid:entry
/ppid == $target && execname == "dtx-trigger"/
{
	@[ustack()] = count();
}

syscall::exit_group:entry
/ppid == $target && execname == "dtx-trigger" && !exited/
{
	exited = 1;
	printf("exited\n");
}
