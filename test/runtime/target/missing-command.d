/* dtx-args: -c 'dtx-no-such-command arg' */
/* A command that cannot be found is an error before anything is attached. */

BEGIN
{
	printf("not reached\n");
}
