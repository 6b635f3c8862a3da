/* dtx-args: -q -x defaultargs */
/* dtx-operands: one */
/* With -x defaultargs an unset $2 is 0 and $$2 is "". */

BEGIN
{
	printf("%s %d [%s]\n", $1, $2, $$2);
	exit(0);
}
