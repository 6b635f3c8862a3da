/* dtx-args: -q */
/*
 * The address of an element or member of a global (`&a[2]`, `&g.y`) is in
 * the program's own data: elements lie their type's size apart, and the
 * address reads back what the variable holds. An array global used as a
 * value is its first element's address.
 */

char chars[5];
short shorts[5];
long longs[5];
struct rec { char ch; int in; } recs[5];
union either { char ch; int in; } unions[5];
enum colors { RED, GREEN, BLUE } colors[5];
struct pair { int x; int y; } g;
int a[4];
int *ip;

BEGIN
{
	printf("apart: %d %d %d %d %d %d\n", (int)&chars[2] - (int)&chars[0],
	    (int)&shorts[3] - (int)&shorts[0], (int)&longs[4] - (int)&longs[0],
	    (int)&recs[2] - (int)&recs[0], (int)&unions[3] - (int)&unions[0],
	    (int)&colors[2] - (int)&colors[0]);
	g.y = 7;
	a[2] = 9;
	p = &g.y;
	q = &a[2];
	printf("read back: %d %d %d\n", *p, *q, *(a + 2));
	printf("member offset: %d\n", (uint64_t)&g.y - (uint64_t)&g.x);
	ip = a;
	printf("through a pointer: %d %d\n", ip[2], (int)(&a[3] - ip));
	exit(0);
}
