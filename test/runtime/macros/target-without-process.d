/* dtx-args: -q */
/* Without -c or -p, $target is 0, in a clause and in a predicate. */

BEGIN
/$target == 0/
{
	printf("%d\n", $target);
	exit(0);
}
