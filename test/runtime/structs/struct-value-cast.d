/*
 * A struct value may be cast to its own type, and a translator may take a
 * struct value (not a pointer) as its input: from a global, from memory
 * through *p, and from the kernel's *curthread.
 */
#pragma D option quiet

struct pair { int left; char mark; };
struct doubled { int twice; long code; };

translator struct doubled < struct pair v >
{
	twice = v.left * 2;
	code = ((struct pair)v).mark;
};

translator struct doubled < struct task_struct t >
{
	twice = t.pid;
	code = t.tgid;
};

struct pair g;

BEGIN
{
	g.left = 1203;
	g.mark = 'v';
	printf("global: %d %c\n", ((struct pair)g).left, ((struct pair)g).mark);
	printf("xlate of global: %d %d\n", xlate<struct doubled *>(g)->twice,
	    xlate<struct doubled>(g).code);

	p = (struct pair *)alloca(sizeof (struct pair));
	p->left = 21;
	p->mark = 'x';
	printf("memory: %d %d\n", ((struct pair)*p).left, xlate<struct doubled>(*p).twice);
	printf("kernel: %d\n", xlate<struct doubled>(*curthread).code == pid);
	exit(0);
}
