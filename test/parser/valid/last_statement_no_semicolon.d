/* the last statement of a clause without a terminating semicolon, on the same and on its own line */

BEGIN
{
	x = 1;
	trace(x)
}

syscall::read:entry { @reads = count() }

syscall::write:entry
{
	this->n = arg2;
	@writes[execname] = sum(this->n)
}

END { printa(@reads); printa(@writes); exit(0) }
