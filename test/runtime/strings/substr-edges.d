/* dtx-args: -q */
/* More substr() edge cases (dtrace-utils' rules). */

BEGIN
{
	s = "hello world";
	printf("[%s][%s][%s]\n", substr(s, 5, 0), substr(s, -3, 2), substr(s, 11));
	printf("[%s][%s][%s]\n", substr(s, 3, 100), substr(s, 0, -20), substr(s, 4, -4));
	printf("[%s][%s][%s]\n", substr(s, -2), substr("", 0), substr(s, 10, 1));
	exit(0);
}
