/* dtx-args: -q -w -o /tmp/dtx-runtime-system-output-file.out */
/*
 * With -o FILE, a command's output goes to dtx's own stdout, as dtrace(1)
 * leaves it, while the trace goes into FILE. The last command shows FILE
 * on stderr and removes it.
 */

BEGIN
{
	system(": > /tmp/dtx-runtime-system-output-file.out");
	printf("one\n");
	system("echo two");
	printf("three ");
	system("echo four");
}

BEGIN
{
	system("cat /tmp/dtx-runtime-system-output-file.out >&2; rm /tmp/dtx-runtime-system-output-file.out");
	exit(0);
}
