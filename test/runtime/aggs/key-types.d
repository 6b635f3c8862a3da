/* dtx-args: -q */
/*
 * Aggregation keys print by their size, as dtrace-utils does: 8 bytes as
 * " %16lld", 4 as " %8d", 2 as " %5d" and 1 as " %3d" of the unsigned bits
 * (so (short)-2 prints as 65534), strings as "  %-50s".
 */

BEGIN
{
	@i[-3] = count();
	@l[(long long)-4] = count();
	@u[(uint64_t)-1] = count();
	@s[(short)-2] = count();
	@c[(char)-1] = count();
	@str["key"] = count();
	@mix["k", 2, (long long)3] = count();
	exit(0);
}
