/* dtx-args: -q */
/*
 * Comparisons of operands of different signedness compare in the type of the
 * usual arithmetic conversions: long against unsigned int as long (signed);
 * int or long against unsigned long as unsigned long; int against unsigned
 * int as unsigned.
 * Constants, then the same from variables.
 */

BEGIN
{
	printf("%d %d %d %d\n", -1 < 1u, -1L < 1u, (unsigned long)1 > -1, -1 < (unsigned long)1);
	printf("%d %d\n", (unsigned int)0xffffffff > -1L, (int)-1 < (unsigned int)0xffffffff);

	i = -1;
	u = 1u;
	l = -1L;
	ul = (unsigned long)1;
	printf("%d %d %d %d\n", i < u, l < u, ul > i, i < ul);
	printf("%d %d\n", (unsigned int)0xffffffff > l, l < (unsigned int)0xffffffff);
	exit(0);
}
