/* dtx-args: -p 99999999 */
/* -p of a process that does not exist (above any pid_max) is an error. */

BEGIN
{
	printf("not reached\n");
}
