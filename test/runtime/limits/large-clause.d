/* dtx-args: -q -C */
/* dtx-timeout: 30 */
/*
 * Clauses too large for one BPF function (a BPF jump reaches 32767
 * instructions) run in parts, called one after the other: actions in
 * different parts print in order, a fault in a later part aborts the whole
 * clause (no record) and fires ERROR once, and speculate() on no speculation
 * in a later part ends the clause without a record.
 */

#define D10(m, p) m(p##0) m(p##1) m(p##2) m(p##3) m(p##4) m(p##5) m(p##6) m(p##7) m(p##8) m(p##9)
#define D100(m, p) D10(m, p##0) D10(m, p##1) D10(m, p##2) D10(m, p##3) D10(m, p##4) \
	D10(m, p##5) D10(m, p##6) D10(m, p##7) D10(m, p##8) D10(m, p##9)
#define D500(m) D100(m, 1) D100(m, 2) D100(m, 3) D100(m, 4) D100(m, 5)

#define COUNT(n) @c[n % 7] = count(); @s = sum(n);
#define FAULTY(n) @f[n % 3] = count();
#define SPECULATIVE(n) self->v##n = n;

BEGIN
{
	printf("first\n");
	D500(COUNT)
	printf("last %d\n", 42);
}

BEGIN
{
	printf("not printed\n");
	D500(FAULTY)
	zero = 0;
	x = 1 / zero;
}

BEGIN
{
	D500(SPECULATIVE)
	speculate(0);
	printf("speculated\n");
}

ERROR
{
	printf("ERROR\n");
}

BEGIN
{
	printa("%d %@d\n", @c);
	printa("%@d\n", @s);
	printf("%d\n", self->v599);
	printa("%d %@d\n", @f);
	exit(0);
}
