/* dtx-args: -w */
/* dtx-cpu: 0 */
/* Without -q the command's output follows its firing's probe line. */

BEGIN
{
	system("echo hello from %s", "system");
}

BEGIN
{
	system("echo first");
	system("echo second");
	exit(0);
}
