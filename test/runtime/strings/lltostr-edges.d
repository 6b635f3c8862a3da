/* dtx-args: -q */
/* lltostr() of edge values, and its result used as a string. */

BEGIN
{
	printf("%s %s %s\n", lltostr(-1), lltostr(10), lltostr(-9223372036854775807));
	printf("%s %d\n", strjoin(lltostr(12), lltostr(34)), strlen(lltostr(100000)));
	printf("%d\n", lltostr(42) == "42");
	exit(0);
}
