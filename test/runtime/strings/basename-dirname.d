/* dtx-args: -q */
/* basename() and dirname() as basename(1) and dirname(1). */

BEGIN
{
	printf("%s %s\n", basename("/foo/bar/baz"), dirname("/foo/bar/baz"));
	printf("%s %s\n", basename("/foo/bar///baz/"), dirname("/foo/bar///baz/"));
	printf("%s %s\n", basename("/"), dirname("/"));
	printf("%s %s\n", basename("f"), dirname("f"));
	printf("%s %s\n", basename("foo/bar/"), dirname("foo/bar/"));
	exit(0);
}
