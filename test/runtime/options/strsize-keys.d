/* dtx-args: -q -x strsize=4 */
/* strsize bounds string aggregation keys and string variables alike. */

BEGIN
{
	@["abcdefg"] = count();
	@["abcdxyz"] = count();
	s = "123456";
	printf("%s %d\n", s, strlen(s));
	exit(0);
}
