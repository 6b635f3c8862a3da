/* dtx-args: -q */
/* Shifts at 32 and 64 bits: >> is arithmetic for signed types, logical for unsigned. */

BEGIN
{
	printf("%d %u %d\n", (int64_t)1 << 63, ((uint64_t)1 << 63) >> 63, ((int64_t)1 << 63) >> 63);
	printf("%d %u %d\n", -1 >> 1, (uint32_t)-1 >> 1, (int)0x80000000 >> 4);
	x = 3;
	x <<= 4;
	y = (uint64_t)0xff00;
	y >>= 8;
	printf("%d %u\n", x, y);
	exit(0);
}
