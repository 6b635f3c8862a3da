/* dtx-args: -q -x cpp -x define=ANSWER=42 -x incdir=/nonexistent */
/* -x cpp, -x define and -x incdir act as -C, -D and -I do. */

BEGIN
{
	printf("%d\n", ANSWER);
	exit(0);
}
