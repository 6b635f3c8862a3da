/* dtx-args: -q */
/*
 * Division and modulo with negative operands truncate toward zero, as in C;
 * mixing int with unsigned int divides as unsigned, int64_t with uint32_t as
 * int64_t (the usual arithmetic conversions).
 */

BEGIN
{
	u = (uint32_t)7;
	printf("%d %d %d %d\n", -7 / 2, -7 % 2, 7 / -2, -7 / -2);
	printf("%d %d\n", -7 % -2, 7 % -2);
	printf("%u %u\n", -7 / u, -7 % u);
	printf("%d %u %u\n", (int64_t)-7 / (uint32_t)2, (uint64_t)-8 / 2, (uint64_t)-8 % 3);
	exit(0);
}
