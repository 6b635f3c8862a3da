/* struct, union and enum definitions: named and anonymous, nested, enum with explicit values, and their use */

struct foo {
	int a;
	char *b;
};

struct pair {
	struct foo first;
	struct foo *second;
	int counts[4];
};

union value {
	int i;
	unsigned long long u;
	char bytes[8];
};

enum color {
	RED,
	GREEN = 5,
	BLUE,
	ALPHA = 0x10,
	MASK = ALPHA | GREEN,
	NEG = -1
};

enum { FIRST, SECOND, THIRD };

struct nested {
	struct {
		int inner;
	} anon;
	union {
		int i;
		char c;
	} u;
	enum color hue;
};

struct foo gfoo;
union value gval;
enum color gcolor;

BEGIN
{
	gfoo.a = 1;
	gval.u = 0x0102030405060708ULL;
	gcolor = BLUE;
	printf("%d %d %d %d %d %d\n", gfoo.a, gcolor, GREEN, MASK, NEG, THIRD);
	printf("%d %d\n", sizeof(struct pair), sizeof(struct nested));
	exit(0);
}
