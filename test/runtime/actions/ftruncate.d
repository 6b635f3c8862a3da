/* dtx-args: -q -w -o /tmp/dtx-runtime-ftruncate.out */
/*
 * ftruncate() empties the output file at its place in the output: of the
 * -o file only what was printed after it stays. The last command shows
 * the file on stderr and removes it.
 */

BEGIN
{
	system(": > /tmp/dtx-runtime-ftruncate.out");
	printf("before\n");
	ftruncate();
	printf("after\n");
}

BEGIN
{
	system("cat /tmp/dtx-runtime-ftruncate.out >&2; rm /tmp/dtx-runtime-ftruncate.out");
	exit(0);
}
