/* outer-scope variable declarations: int, string, scalar arrays, associative arrays with key types, several declarators */

int x;
int y, z;
string s;
int a[10];
int counts[string, int];
uint64_t last_seen[int];
string names[int, int];
char buf[64];
long long big;
unsigned int flags;

BEGIN
{
	x = 1;
	y = z = 2;
	s = "hello";
	a[3] = 4;
	counts["read", 0] = 5;
	last_seen[pid] = timestamp;
	names[1, 2] = "one-two";
	big = 1LL << 40;
	flags = 0x10u;
	printf("%d %d %d %s %d %d %s\n", x, y, z, s, a[3], counts["read", 0], names[1, 2]);
	exit(0);
}
