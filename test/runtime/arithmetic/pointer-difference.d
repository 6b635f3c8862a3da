/* dtx-args: -q */
/*
 * The difference of two pointers into one array counts elements, whatever
 * their size (12-byte structs too) and sign, with values LLVM cannot fold:
 * BPF before v4 has no signed division, so it is done without one.
 */

struct triple {
	int a, b, c;
};

BEGIN
{
	p = (struct triple *)alloca(5 * sizeof (struct triple));
	q = p + 3;
	r = q;
	printf("%d %d %d\n", q - p, (r - 1) - p, p - q);
	w = (int *)alloca(16);
	v = w + (timestamp & 0) + 3;
	printf("%d %d\n", v - w, w - v);
	exit(0);
}
