/* dtx-args: -x quiet */
/* -x quiet is -q. */

BEGIN
{
	printf("quiet\n");
	exit(0);
}
