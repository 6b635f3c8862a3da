/* dtx-args: -q */
/*
 * A run-time fault names the expression that faulted, line and column, not
 * only its clause; ERROR still gets dtrace's arguments: arg2 is the
 * statement's index in the clause (3 and 1 here), arg4 the fault.
 */

ERROR
{
	printf("ERROR: action %d, fault %d\n", arg2, arg4);
}

BEGIN
{
	a = 1;
	b = 0;
	c = 1 + a / b;
}

BEGIN
{
	x = stringof(((struct task_struct *)16)->comm);
}

BEGIN
{
	exit(0);
}
