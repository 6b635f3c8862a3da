/* dtx-args: -q */
/* %% and %p: DTrace prints pointers in hex without 0x unless '#' is given. */

BEGIN
{
	printf("100%% done\n");
	printf("%p %#p\n", (void *)0x1234, (void *)0x1234);
	printf("[%20p]\n", (void *)0xffff);
	exit(0);
}
