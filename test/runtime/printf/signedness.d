/* dtx-args: -q */
/*
 * Without a size prefix the argument's type decides: %d of an unsigned
 * type prints it unsigned, %x/%o/%u of a small type print its own width.
 */

BEGIN
{
	printf("%d %i %d\n", (unsigned int)-1, (uint64_t)-1, (unsigned char)255);
	printf("%x %o %u %X\n", (char)-1, (char)-1, (short)-1, (short)-2);
	printf("%d %d %x %u\n", (char)-1, (short)-300, (int8_t)-128, (int64_t)-1);
	printf("%X %x\n", (long)-1, -2);
	exit(0);
}
