/* dtx-args: -q */
/* strchr(), strrchr() and strstr() return the rest of the string from the match. */

BEGIN
{
	printf("%s|%s\n", strchr("hello", 'l'), strrchr("hello", 'l'));
	printf("%s|%s\n", strstr("hello world", "o w"), strstr("abcabc", "ca"));
	printf("%s\n", strchr("a/b/c", '/'));
	exit(0);
}
