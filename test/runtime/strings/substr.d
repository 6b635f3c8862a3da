/* dtx-args: -q */
/*
 * substr(s, index[, length]): a negative index counts from the end, a
 * negative length stops that many characters before the end; out of range
 * gives what remains in range (dtrace-utils' rules).
 */

BEGIN
{
	s = "hello world";
	printf("[%s]\n", substr(s, 0));
	printf("[%s]\n", substr(s, 6));
	printf("[%s]\n", substr(s, -5));
	printf("[%s]\n", substr(s, 0, 5));
	printf("[%s]\n", substr(s, 6, 3));
	printf("[%s]\n", substr(s, 2, -3));
	printf("[%s]\n", substr(s, 20));
	printf("[%s]\n", substr(s, -20));
	printf("[%s]\n", substr(s, -13, 3));
	printf("[%s]\n", substr(s, -20, 3));
	exit(0);
}
