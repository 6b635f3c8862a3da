/* dtx-args: -q */
/* defaultargs: missing macro arguments are 0 and "". */

#pragma D option defaultargs

BEGIN
{
	printf("%d [%s]\n", $1, $$2);
	exit(0);
}
