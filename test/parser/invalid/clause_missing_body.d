/* invalid: in a script file a probe description must be followed by a predicate or a body */

BEGIN
{
	trace("start");
}

syscall::read:entry
