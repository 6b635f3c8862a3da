/* dtx-args: -q -x strsize=8 */
/* strsize bounds strings, NUL included: 7 characters here. */

BEGIN
{
	s = "abcdefghijkl";
	printf("%s\n", s);
	printf("%s\n", strjoin("1234", "56789"));
	printf("%d\n", strlen(s));
	exit(0);
}
