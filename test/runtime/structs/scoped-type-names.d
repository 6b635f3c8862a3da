/*
 * A type may be named in a module's scope: D`name is one of D's types (the
 * script's and D's own), module`name or struct module`tag the kernel's.
 */
#pragma D option quiet

struct counted { unsigned int hash; unsigned int len; char *name; };
typedef long wide_t;

BEGIN
{
	s = (struct D`counted *)alloca(sizeof (struct D`counted));
	s->len = 7;
	printf("D struct: %d %d\n", sizeof (struct D`counted), s->len);
	printf("D types: %d %d %d %d\n", sizeof (D`int), sizeof (D`wide_t), sizeof (D`uint16_t),
	    (D`unsigned)-1 == 4294967295);
	printf("kernel: %d %d %d\n",
	    sizeof (struct vmlinux`task_struct) == sizeof (struct task_struct),
	    sizeof (vmlinux`pid_t), (vmlinux`u8)257);
	printf("kernel int: %d\n", sizeof (vmlinux`int));
	exit(0);
}
