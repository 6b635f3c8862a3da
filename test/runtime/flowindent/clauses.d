/* dtx-args: -F -c '@TRIGGER@ getpid 1' */
/* dtx-cpu: 0 */
/*
 * Several clauses on one probe: only the first clause of an entry indents
 * and only the last of a return unindents; the others show "| " and
 * FUNCTION:NAME at the depth of the function's body (Solaris dtrace).
 */

syscall::getpid:entry
/pid == $target/
{
	trace("entry 1");
}

syscall::getpid:entry
/pid == $target/
{
	trace("entry 2");
}

syscall::getpid:return
/pid == $target/
{
	trace("return 1");
}

syscall::getpid:return
/pid == $target/
{
	trace("return 2");
}
