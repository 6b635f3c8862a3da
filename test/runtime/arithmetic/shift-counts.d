/* dtx-args: -q */
/*
 * Shift counts are taken modulo 64 (a count of 64 shifts by 0, 65 by 1, -1
 * by 63); >> is arithmetic for signed operands and logical for unsigned ones.
 * An int shifted past bit 31 keeps the bits in the expression (64-bit) and
 * loses them when recorded as an int.
 */

BEGIN
{
	big = (uint64_t)1;
	n63 = 63;
	n64 = 64;
	n65 = 65;
	neg = -1;
	printf("%u %u %u %u\n", big << n63, big << n64, big << n65, big << neg);
	printf("%u %u\n", (big << n63) >> n63, (big << n63) >> n64);

	sl = (long)1 << n63;
	printf("%d %d %d %u\n", sl, sl >> n63, sl >> n64, (uint64_t)sl >> n63);
	printf("%d %d\n", sl >> neg, (sl >> n63) >> n65);

	i = 1;
	printf("%d %d %d %d\n", i << 31, (i << 31) > 0, i << 32, (i << 32) != 0);
	printf("%d %d\n", 1 << 31, (1 << 32) != 0);

	u = (unsigned int)0x80000000;
	printf("%u %u %u\n", u >> 31, u << 1, (u << 1) >> 1);
	exit(0);
}
