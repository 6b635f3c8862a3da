/* dtx-args: -q */
/*
 * Bounds are checked for every declared array: each index of a
 * two-dimensional array, an array member of a struct and an array of
 * structs. Each fault stops its clause only, and fires ERROR with arg4 = 10
 * (DTRACEFLT_BADINDEX) and the index in arg5.
 */

int m[2][3];

struct s {
	char name[4];
};

struct s g;
struct s many[2];

BEGIN
{
	i = 3;
	m[1][i] = 1;
}

BEGIN
{
	i = 2;
	m[i][0] = 1;
}

BEGIN
{
	i = 4;
	g.name[i] = 'x';
}

BEGIN
{
	i = 2;
	many[i].name[0] = 'y';
}

BEGIN
{
	printf("done\n");
}

ERROR
{
	printf("%d %d\n", arg4, arg5);
}

BEGIN
{
	exit(0);
}
