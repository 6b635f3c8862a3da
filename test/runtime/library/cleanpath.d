/* dtx-args: -q */
/*
 * cleanpath() as dtrace-utils has it: "//" and "/./" made "/", each ".."
 * takes the component before it away; leading ".." stay in a relative path
 * and go from an absolute one; a trailing '/' goes; nothing left is ".".
 */

BEGIN
{
	printf("%s\n", cleanpath("/a//b/./c/../d"));
	printf("%s\n", cleanpath("/a/b/c/../../d"));
	printf("%s\n", cleanpath("/a/b/.."));
	printf("%s\n", cleanpath("/a/b/"));
	printf("%s\n", cleanpath("//usr///lib/"));
	printf("%s\n", cleanpath("/../x"));
	printf("%s\n", cleanpath("/a/b/../../../../"));
	printf("%s\n", cleanpath("./a/./b"));
	printf("%s\n", cleanpath("a/../b"));
	printf("%s\n", cleanpath("a/.."));
	printf("%s\n", cleanpath("../.."));
	printf("%s\n", cleanpath("../a/../../b/"));
	printf("%s\n", cleanpath("a/b/../../.."));
	printf("%s\n", cleanpath("/a/..b/.c/...d"));
	printf("%s\n", cleanpath("/"));
	printf("%s\n", cleanpath("//"));
	printf("%s\n", cleanpath("/./"));
	printf("%s\n", cleanpath("./"));
	printf("%s\n", cleanpath("."));
	printf("[%s]\n", cleanpath(""));
	exit(0);
}
