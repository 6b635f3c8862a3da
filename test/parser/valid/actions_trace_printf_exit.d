/* basic actions: trace of integers, strings and expressions, printf, exit(0) and exit with a computed status */

BEGIN
{
	errors = 0;
	trace(1);
	trace("hello");
	trace(execname);
	trace(timestamp - vtimestamp);
	printf("%s\n", "done");
	exit(0);
}

syscall::kill:entry
/arg1 == 9/
{
	exit(3);
}

ERROR
{
	errors++;
}

END
{
	exit(errors > 0 ? 1 : 0);
}
