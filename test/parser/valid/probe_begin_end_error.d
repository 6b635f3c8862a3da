/* the dtrace provider: BEGIN, END and ERROR, bare and fully qualified */

BEGIN
{
	start = timestamp;
}

dtrace:::BEGIN
{
	printf("tracing... hit Ctrl-C to end\n");
}

ERROR
{
	printf("error in clause %d: fault %d at %p\n", arg1, arg4, arg5);
}

dtrace:::ERROR
{
	@errors[arg4] = count();
}

END
{
	printf("ran for %d ms\n", (timestamp - start) / 1000000);
}

dtrace:::END
{
	printa(@errors);
}
