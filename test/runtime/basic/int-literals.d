/* dtx-args: -q */
/*
 * Integer constants take the first type that holds them, as in C: a decimal
 * one int, long, long long; a hexadecimal or octal one int, unsigned int,
 * long, ...; suffixes U and L choose unsigned and long.
 */

BEGIN
{
	printf("%d %d %d %d %d\n", sizeof (0xffffffff), sizeof (4294967295), sizeof (2147483647),
	    sizeof (1L), sizeof (1ULL));
	printf("%d %d %d\n", 0xffffffff, 2147483648, -2147483648);
	printf("%d %d %d %d\n", 1U - 2, 1 - 2, 010, 0x10);
	exit(0);
}
