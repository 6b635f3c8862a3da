/* dtx-args: -q */
/*
 * A kernel symbol declared with extern is read where /proc/kallsyms puts
 * it: _stext, the start of the kernel's text, is a kernel address.
 */

extern char _stext;

BEGIN
{
	printf("%d\n", (uint64_t)&`_stext >= 0xffff800000000000);
	exit(0);
}
