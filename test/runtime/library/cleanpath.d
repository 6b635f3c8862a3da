/* dtx-args: -q */
/*
 * cleanpath(): "//" and "/./" made "/", "dir/.." taken back, textually, as
 * DTrace does it.
 */

BEGIN
{
	printf("%s\n", cleanpath("/a//b/./c/../d"));
	printf("%s\n", cleanpath("/a/b/c/../../d"));
	printf("%s\n", cleanpath("/a/b/.."));
	printf("%s\n", cleanpath("/a/b/"));
	printf("%s\n", cleanpath("//usr///lib/"));
	printf("%s\n", cleanpath("/../x"));
	printf("%s\n", cleanpath("./a/./b"));
	printf("%s\n", cleanpath("a/../b"));
	printf("%s\n", cleanpath("/a/..b/.c/...d"));
	printf("%s\n", cleanpath("/"));
	printf("[%s]\n", cleanpath(""));
	exit(0);
}
