/* tracemem with and without a dynamic size, and setopt with one and two arguments */

syscall::write:entry
/arg2 > 0/
{
	this->buf = copyin(arg1, 32);
	tracemem(this->buf, 32);
	tracemem(this->buf, 32, arg2);
}

BEGIN
{
	setopt("quiet");
	setopt("strsize", "256");
	setopt("aggsortkey", "1");
	setopt("bufsize", "8m");
}
