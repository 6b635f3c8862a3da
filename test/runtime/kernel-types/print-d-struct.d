/* dtx-args: -q */
/* print() of a struct the script declares, a global: nested structs,
   anonymous unions, arrays, enums and bit-fields, laid out as declared;
   members and elements that are zero are left out, as in dtrace-utils. */

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
	s.count = -3;
	s.name[0] = 'd';
	s.name[2] = 'x';
	s.in.b = 1234567890123;
	s.c = 'A';
	s.values[1] = 7;
	s.hue = GREEN;
	s.flags = 5;
	s.next = (void *)0xffff888100a68c00;
	print(s);
	print(s.values);
	exit(0);
}
