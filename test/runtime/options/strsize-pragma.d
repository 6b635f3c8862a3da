/* dtx-args: -q */
/* The strsize option set by a pragma. */

#pragma D option strsize=5

BEGIN
{
	s = "abcdefghijkl";
	printf("%s\n", s);
	exit(0);
}
