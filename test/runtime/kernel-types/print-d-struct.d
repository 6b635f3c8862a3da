/* dtx-args: -q */
/* print() of a struct the script declares, as a global that is all zeros:
   nested structs, anonymous unions, arrays, enums and bit-fields, laid out
   as declared. */

enum color { RED, GREEN };

struct inner {
	short a;
	long b;
};

struct sample {
	int count;
	char name[8];
	struct inner in;
	union {
		int i;
		char c;
	};
	int values[3];
	enum color hue;
	unsigned int flags : 3;
	void *next;
};

struct sample s;

BEGIN
{
	print(s);
	printf("\n");
	print(s.values);
	exit(0);
}
