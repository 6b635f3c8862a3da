/* dtx-args: -q */
/* speculation() hands out 1 to nspec, then 0: one failed speculation. */
#pragma D option nspec=4

BEGIN
{
	printf("%d %d %d %d %d\n", speculation(), speculation(), speculation(),
	    speculation(), speculation());
	exit(0);
}
