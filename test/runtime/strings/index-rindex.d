/* dtx-args: -q */
/* index() and rindex(), with and without a start position (Perl's rules). */

BEGIN
{
	printf("%d %d\n", index("foobarbaz", "bar"), rindex("foobarbaz", "ba"));
	printf("%d %d\n", index("foofoofoo", "foo", 1), rindex("foofoofoo", "foo", 5));
	printf("%d %d\n", index("foobar", "xyz"), rindex("foobar", "xyz"));
	printf("%d %d\n", index("foobar", ""), rindex("foo", ""));
	exit(0);
}
