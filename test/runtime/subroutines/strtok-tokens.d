/* dtx-args: -q */
/*
 * strtok(s, d) returns s's first token, strtok(NULL, d) the next ones; the
 * delimiters may change from call to call, and (as in DTrace, unlike C) the
 * scan resumes at the delimiter that ended the previous token, so a call
 * with other delimiters can return a token that starts with it.
 */

BEGIN
{
	x = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	printf("%s\n", strtok(x, "abcABC"));
	printf("%s\n", strtok(NULL, "MNO"));
	printf("%s\n", strtok(NULL, "MNO"));
	printf("%s\n", strtok(NULL, "0123456789"));
	printf("%s\n", strtok("foo", ""));
	printf("%s\n", strtok(",,a,,b,", ","));
	printf("%s\n", strtok(NULL, ","));
	printf("[%s|%s]\n", strtok("  one two", " "), strtok(NULL, " "));
	exit(0);
}
