/* dtx-args: -q */
/* Without -w or the destructive option, system() is refused at compile time. */

BEGIN
{
	system("echo never");
	exit(0);
}
