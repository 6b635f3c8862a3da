/* dtx-args: -q */
/* printf() without conversions, only %%, and %% next to conversions. */

BEGIN
{
	printf("no conversions\n");
	printf("%%\n");
	printf("%%%d%%%s%%\n", 5, "x");
	printf("%5s%%|%-3d%%\n", "a", 1);
	exit(0);
}
