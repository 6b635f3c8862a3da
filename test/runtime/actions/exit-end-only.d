/* dtx-args: -q */
/* An exit() in END alone after BEGIN's exit(0): END's value is the status. */

BEGIN
{
	exit(0);
}

END
{
	exit(5);
}
