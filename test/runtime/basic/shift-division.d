/* dtx-args: -q */
/*
 * Shifts and division as in C: >> of a signed value is arithmetic, of an
 * unsigned one logical; division truncates toward zero; unsigned operands
 * divide as unsigned.
 */

BEGIN
{
	x = -16;
	printf("%d %d %d\n", x >> 2, x / 3, x % 3);
	u = (uint64_t)x;
	printf("%u %u %u\n", u >> 60, u / 3, u % 1000);
	printf("%d %d\n", 7 / -2, 7 % -2);
	printf("%x\n", 0xff & ~0x0f | 0x100 ^ 0x1);
	printf("%d %d\n", 1 << 10, -1 << 4);
	exit(0);
}
