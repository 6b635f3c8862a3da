/* dtx-args: -q -p ' 1' -p '1 ' */
/* -p takes a pid with white space around it; grabbing one twice is harmless. */

BEGIN
{
	printf("%d\n", $target);
	exit(0);
}
