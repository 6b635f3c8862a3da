/* dtx-args: -q */
/* basename() and dirname() of the empty string, "//", "/a", "a//b", "a/" and ".". */

BEGIN
{
	printf("[%s][%s]\n", basename(""), dirname(""));
	printf("[%s][%s]\n", basename("//"), dirname("//"));
	printf("[%s][%s]\n", basename("/a"), dirname("/a"));
	printf("[%s][%s]\n", basename("a//b"), dirname("a//b"));
	printf("[%s][%s]\n", basename("a/"), dirname("a/"));
	printf("[%s][%s]\n", basename("."), dirname("."));
	exit(0);
}
