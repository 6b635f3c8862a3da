/* dtx-args: -F -c '@TRIGGER@ getpid 2' */
/* dtx-cpu: 0 */
/*
 * A second return clause whose predicate is false for the first firing:
 * the first clause's return is then the last of its firing and unindents
 * itself.
 */

syscall::getpid:entry
/pid == $target/
{
	self->n++;
}

syscall::getpid:entry
/pid == $target/
{
}

syscall::getpid:return
/pid == $target/
{
}

syscall::getpid:return
/pid == $target && self->n == 2/
{
	trace("second");
}
