/* dtx-args: -q */
/* strlen() and strjoin(), nested and with empty strings. */

BEGIN
{
	s = strjoin("foo", "bar");
	printf("%s %d\n", s, strlen(s));
	printf("%d\n", strlen(""));
	printf("[%s]\n", strjoin("", ""));
	printf("%s\n", strjoin(strjoin("a", "b"), "c"));
	exit(0);
}
