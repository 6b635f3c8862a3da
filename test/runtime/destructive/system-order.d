/* dtx-args: -q -w */
/*
 * What printf() wrote before a system() command, even without a newline,
 * comes out before the command's output; what it writes after, after.
 */

BEGIN
{
	printf("one ");
	system("echo two");
	printf("three\n");
}

BEGIN
{
	system("printf 'four '");
	printf("five\n");
	trace("six");
	system("echo");
	exit(0);
}
