/* extern declarations of kernel symbols, forward struct declarations, pointers to incomplete types and arrays of pointers */

extern unsigned long max_pfn;
extern int panic_timeout;

struct opaque;
struct opaque *handle;
union later;

char *names[4];
int grid[4][4];

BEGIN
{
	printf("%d %d\n", `max_pfn, `panic_timeout);
	names[0] = "zero";
	grid[1][2] = 3;
	printf("%s %d %d\n", stringof(names[0]), grid[1][2], sizeof(grid));
	exit(0);
}
/* dtx-requires: kallsyms_all */
