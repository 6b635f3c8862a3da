/* dtx-args: -q -x strsize=8 */
/* strsize bounds strings, their NUL not counted: 8 characters here. */

BEGIN
{
	s = "abcdefghijkl";
	printf("%s\n", s);
	printf("%s\n", strjoin("1234", "56789"));
	printf("%d\n", strlen(s));
	exit(0);
}
