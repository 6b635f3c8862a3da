/* const and volatile qualifiers, unsigned, long long, short, signed char, pointers to pointers and qualified pointers */

struct buffer {
	const char *name;
	volatile int state;
	char **argv;
	const char *const *envp;
	int *volatile *slots;
	unsigned short port;
	signed char delta;
	short s;
	long l;
	unsigned long ul;
	long long ll;
	unsigned long long ull;
	long int li;
	unsigned long long int ulli;
	void *opaque;
	void **handles;
	int (*callback)(int, const char *);
};

const int limit;
volatile unsigned int ticks;
char **gargv;
unsigned u;
signed s;
long double_word;

BEGIN
{
	this->b = (struct buffer *)0;
	this->pp = (char **)0;
	this->cpp = (const char **)0;
	this->vp = (volatile int *)0;
	printf("%d\n", sizeof(struct buffer));
	exit(0);
}
