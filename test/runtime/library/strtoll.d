/* dtx-args: -q */
/*
 * strtoll(s [, base]) as C's strtoll(): white space, a sign, digits up to
 * the first invalid one; base 16 may have a 0x prefix, base 0 reads it (0x:
 * 16, 0: 8, else 10); out of range values are INT64_MAX and INT64_MIN.
 */

BEGIN
{
	printf("%d %d %d %d\n", strtoll("42"), strtoll(" \t\n+17 apples"),
	    strtoll("-0"), strtoll(""));
	printf("%d %d %d %d\n", strtoll("1010", 2), strtoll("777", 8),
	    strtoll("778", 8), strtoll("Zz", 36));
	printf("%d %d %d %d\n", strtoll("ff", 16), strtoll("0xFF", 16),
	    strtoll("0x", 16), strtoll("0xg", 16));
	printf("%d %d %d %d\n", strtoll("0x10", 0), strtoll("010", 0),
	    strtoll("10", 0), strtoll("-0x10", 0));
	printf("%d %d\n", strtoll("abc"), strtoll("12abc"));
	printf("%d %d\n", strtoll("9223372036854775807"),
	    strtoll("9223372036854775808"));
	printf("%d %d\n", strtoll("-9223372036854775808"),
	    strtoll("-99999999999999999999"));
	this->s = "1234";
	this->base = 5;
	printf("%d %d\n", strtoll(this->s) + 1, strtoll(this->s, this->base));
	exit(0);
}
