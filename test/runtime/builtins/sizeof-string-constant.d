/* dtx-args: -q */
/*
 * sizeof a string constant is its characters and the NUL, as in dtrace; a
 * string variable holds strsize characters and the NUL.
 */

BEGIN
{
	s = "hi";
	printf("%d %d %d\n", sizeof "hi", sizeof(""), sizeof(s));
	exit(0);
}
