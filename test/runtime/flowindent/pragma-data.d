/* dtx-args: -c '@TRIGGER@ getpid 1' */
/* dtx-cpu: 0 */
/*
 * #pragma D option flowindent: probes that are neither entries nor returns
 * show "| " and FUNCTION:NAME; traced data follows the padded name.
 */

#pragma D option flowindent

BEGIN
{
	trace("begin");
}

syscall::getpid:entry
/pid == $target/
{
	trace(probefunc);
}

syscall::getpid:return
/pid == $target/
{
	trace(arg0 > 0);
}

END
{
	trace("end");
}
