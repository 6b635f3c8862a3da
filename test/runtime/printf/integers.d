/* dtx-args: -q */
/*
 * Integer conversions. Without a size prefix the argument's own width and
 * signedness decide: %u and %x of an int -1 print 32 bits.
 */

BEGIN
{
	i = 97;
	printf("%d %i %u %x %X %o\n", i, i, i, 255, 255, 8);
	printf("%ld %lu %lx %lld %llx\n", (long)-5, (unsigned long)5, (unsigned long)255,
	    (long long)-7, (unsigned long long)4096);
	printf("%hd %hu %hx\n", (short)-2, (unsigned short)65535, (unsigned short)0xbeef);
	printf("%d %u %x\n", -1, -1, -1);
	printf("%d\n", 9223372036854775807);
	printf("%x %X\n", 0xdeadbeefcafe, 0xdeadbeefcafe);
	exit(0);
}
