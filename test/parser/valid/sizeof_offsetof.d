/* sizeof(type), sizeof expression, sizeof without parentheses, offsetof(struct, member) */

struct sample {
	char tag;
	int value;
	long long stamp;
	char name[16];
};

typedef struct sample sample_t;

BEGIN
{
	a = sizeof(int);
	b = sizeof(struct sample);
	c = sizeof(sample_t *);
	d = sizeof(char [16]);
	e = sizeof (unsigned long long);
	x = 5;
	f = sizeof x;
	g = sizeof(x);
	h = sizeof x + 1;
	i = offsetof(struct sample, value);
	j = offsetof(sample_t, stamp);
	k = offsetof(struct sample, name) + sizeof(char);
	l = sizeof(uint64_t) * 8;
	printf("%d %d %d %d %d %d %d %d %d %d %d %d\n",
	    a, b, c, d, e, f, g, h, i, j, k, l);
	exit(0);
}
