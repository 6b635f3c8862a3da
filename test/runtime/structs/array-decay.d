/* dtx-args: -q */
/*
 * An array used as a value is the address of its first element, as in C:
 * an array member of alloca'd memory written through bcopy() and through a
 * cast pointer, pointer arithmetic and differences on arrays, casts to
 * integers, comparisons of addresses, and a kernel char array
 * (curthread->comm) offset like a pointer.
 */

typedef struct rec {
	int n;
	char name[8];
	int vals[4];
} rec_t;

BEGIN
{
	r = (rec_t *)alloca(sizeof (rec_t));
	bcopy("hello", r->name, 6);
	printf("bcopy: %s\n", stringof(r->name));

	this->p = (char *)r->name;
	this->p[0] = 'j';
	printf("through a pointer: %s\n", stringof(r->name));

	bcopy("ey", r->name + 1, 2);
	printf("offset: %s %s\n", stringof(r->name), stringof(r->name + 3));

	r->vals[2] = 42;
	this->v = r->vals + 2;
	printf("element: %d %d\n", *this->v, *(r->vals + 2));
	printf("difference: %d %d\n", (r->vals + 3) - r->vals, &r->vals[3] - r->vals);
	printf("offsets: %d %d\n", (uint64_t)r->name - (uint64_t)r,
	    (uintptr_t)r->vals - (uintptr_t)r);
	printf("compare: %d %d %d\n", r->vals == &r->vals[0], r->vals + 1 > r->vals,
	    r->vals != NULL);

	printf("comm: %d %d\n", stringof(curthread->comm + 0) == execname,
	    (uint64_t)curthread->comm - (uint64_t)curthread ==
	    offsetof(struct task_struct, comm));
	exit(0);
}
