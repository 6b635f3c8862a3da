/* dtx-args: -q */
/*
 * A variable that ++ or -- creates is an int64_t, as in dtrace: a global, a
 * thread-local and an associative array's element. One that an assignment
 * creates has the value's type.
 */

BEGIN
{
	n++;
	self->m--;
	a["x"]++;
	i = 1;
	printf("%d %d %d %d\n", sizeof(n), sizeof(self->m), sizeof(a["x"]), sizeof(i));
	printf("%d %d %d\n", n, self->m, a["x"]);
	n = 0x7fffffff;
	n++;
	printf("%d\n", n);
	exit(0);
}
