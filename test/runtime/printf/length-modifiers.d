/* dtx-args: -q */
/* Size prefixes h, l and ll with arguments of the matching types. */

BEGIN
{
	printf("%hd %hi %hu %hx %hX %ho\n", (short)-5, (short)-6, (unsigned short)65535,
	    (short)-1, (unsigned short)0xabc, (unsigned short)8);
	printf("%ld %li %lu %lx %lX %lo\n", (long)-5, (long)-6, (unsigned long)7,
	    (long)255, (unsigned long)255, (unsigned long)8);
	printf("%lld %lli %llu %llx %llX %llo\n", (long long)-9000000000, (long long)-1,
	    (unsigned long long)18446744073709551615, (long long)-1, (unsigned long long)3054,
	    (unsigned long long)64);
	printf("%lx %llx\n", (uint64_t)4096, (int64_t)-16);
	exit(0);
}
