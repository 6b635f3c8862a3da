/* dtx-args: -q */
/*
 * strsize is the characters a string holds, its NUL not counted, as in
 * dtrace: with strsize=5, "abcd" fits, a longer string keeps 5 characters,
 * strlen() says at most 5, and a string variable has 6 bytes.
 */

#pragma D option strsize=5

BEGIN
{
	x = "abcd";
	y = "abcdefgh";
	printf("%s %s %d %d\n", x, y, strlen("123456789"), sizeof(x));
	printf("%s|%s|%s\n", strjoin("abc", "def"), substr("0123456789", 2), lltostr(1234567));
	exit(0);
}
