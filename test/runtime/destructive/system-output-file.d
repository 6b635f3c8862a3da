/* dtx-args: -q -w -o /tmp/dtx-runtime-system-output-file.out */
/*
 * With -o FILE, dtx sends a command's output where the trace's goes: into
 * FILE, in order with printf(). (dtrace(1) leaves the command its own
 * stdout: there the output would be on the terminal, not in FILE.) The
 * last command shows FILE on stderr and removes it; stdout stays empty.
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
