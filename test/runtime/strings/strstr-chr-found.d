/* dtx-args: -q */
/*
 * strstr(), strchr() and strrchr() when the match is at the very start or
 * end, and strstr() of the empty string.
 */

BEGIN
{
	printf("[%s][%s][%s]\n", strstr("abcabc", "abc"), strstr("abcabc", "bc"), strstr("abc", ""));
	printf("[%s][%s][%s]\n", strchr("abc", 'a'), strchr("abc", 'c'), strrchr("abca", 'a'));
	printf("[%s]\n", strrchr("/usr/lib/", '/'));
	exit(0);
}
