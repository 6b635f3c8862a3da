/* probe descriptions with one, two, three and four fields, including empty fields */

BEGIN
{
	n = 0;
}

read:entry
{
	n++;
}

vmlinux:write:entry
{
	n++;
}

syscall::close:entry
{
	n++;
}

syscall:vmlinux:openat:entry
{
	n++;
}

syscall:::entry
{
	n++;
}

:::BEGIN
{
	n++;
}

::openat:
{
	n++;
}

dtrace:::END
{
	printf("%d firings\n", n);
}
