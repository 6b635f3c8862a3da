/* dtx-args: -q */
/*
 * A store through a pointer may go into the program's global variables
 * (&g.member), as in dtrace, as well as into alloca() memory; anywhere else
 * it is an invalid address.
 */

struct s {
	int a;
	int b;
	long c;
};

struct s g;

BEGIN
{
	p = &g.b;
	*p = 5;
	q = (long *)&g.c;
	*q = 77;
	printf("%d %d %d\n", g.a, g.b, g.c);
}

BEGIN
{
	r = (int *)8;
	*r = 1;
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d at %d\n", arg4, arg5);
}
