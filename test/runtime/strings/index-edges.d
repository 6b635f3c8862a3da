/* dtx-args: -q */
/*
 * index() and rindex() at the edges (dtrace-utils): a negative start is 0
 * for index() but finds nothing for rindex(); a start past the end finds
 * only "", at the end, for index() (dtrace-utils' tst.index.r, checked
 * against Perl) and is clamped for rindex().
 */

BEGIN
{
	printf("%d %d %d\n", index("foofoo", "foo", -3), index("foofoo", "foo", 4), index("foofoo", "foo", 3));
	printf("%d %d %d\n", rindex("foofoo", "foo", -1), rindex("foofoo", "foo", 100), rindex("foofoo", "foo", 2));
	printf("%d %d %d\n", index("abc", "", 3), index("abc", "", 4), index("", "a"));
	printf("%d %d\n", rindex("abc", "abcd"), index("abc", "abc"));
	exit(0);
}
