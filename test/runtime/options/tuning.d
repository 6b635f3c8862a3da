/* dtx-args: -q -x bufsize=1m -x switchrate=10hz -x aggrate=1hz -x dynvarsize=2m -x nspec=2 */
/* Buffer and rate options change nothing in the output. */

BEGIN
{
	@n = count();
	printf("ok\n");
	exit(0);
}
