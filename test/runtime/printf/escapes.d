/* dtx-args: -q */
/* Escape sequences in D string constants. */

BEGIN
{
	printf("a\tb\\c\"d\x41\101|\n");
	printf("%s|\n", "x\ty");
	exit(0);
}
