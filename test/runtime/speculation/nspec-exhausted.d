/* dtx-args: -q */
/*
 * With the default nspec of 1, a second and third speculation() while the
 * first is active return 0, and dtx reports the failed speculations when
 * tracing ends.
 */

BEGIN
{
	a = speculation();
	b = speculation();
	c = speculation();
	printf("%d %d %d\n", a, b, c);
	exit(0);
}
