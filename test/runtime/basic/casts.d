/* dtx-args: -q */
/*
 * Casts truncate to the target width and sign-extend or zero-extend by its
 * signedness; arithmetic on small types is done in int; sizeof of the basic
 * types (LP64).
 */

BEGIN
{
	printf("%d %d %d %d %d\n", (char)300, (unsigned char)-1, (short)70000, (unsigned short)-1,
	    (int)(long long)0x100000001);
	c = (char)127;
	c++;
	printf("%d %d %d\n", (char)0x7f + (char)1, c, (int8_t)-129);
	printf("%d %d\n", (short)-32768 - 1, (unsigned char)250 + (unsigned char)10);
	printf("%d %d %d\n", -1 < (uint32_t)1, (int64_t)-1 < (uint32_t)1, -1 < 1u);
	printf("%d %d %d %d %d %d\n", sizeof (char), sizeof (short), sizeof (int), sizeof (long),
	    sizeof (long long), sizeof (uint64_t));
	exit(0);
}
