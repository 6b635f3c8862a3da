/* dtx-args: -q */
/* toupper() and tolower() leave non-letters alone; strjoin() of empty strings. */

BEGIN
{
	printf("[%s][%s]\n", toupper(""), tolower(""));
	printf("[%s][%s]\n", toupper("a-z_A-Z 0-9 {}@[`"), tolower("A-Z_a-z 0-9 {}@[`"));
	printf("[%s][%s][%s]\n", strjoin("", "x"), strjoin("x", ""), strjoin(toupper("ab"), tolower("CD")));
	printf("%d %d\n", strlen(toupper("abc")), strlen(strjoin("ab", "cde")));
	exit(0);
}
