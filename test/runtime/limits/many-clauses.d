/* dtx-args: -q -C */
/* dtx-timeout: 30 */
/*
 * 600 BEGIN clauses, 400 tick-1s clauses and 40 ERROR clauses: more than the
 * 256 functions the kernel verifies in one BPF program, so the clauses run
 * from blocks that each inline several. They run in program order (the hash
 * depends on it), and exit() stops the clauses after it in any block.
 */

/* M(100) .. M(699); E10 repeats D10 for use inside it. */
#define D10(m, p) m(p##0) m(p##1) m(p##2) m(p##3) m(p##4) m(p##5) m(p##6) m(p##7) m(p##8) m(p##9)
#define D100(m, p) D10(m, p##0) D10(m, p##1) D10(m, p##2) D10(m, p##3) D10(m, p##4) \
	D10(m, p##5) D10(m, p##6) D10(m, p##7) D10(m, p##8) D10(m, p##9)

int hash;

#define HASH(n) BEGIN { hash = (hash * 31 + n) % 1000003; begun++; }
#define TICK(n) tick-1s { ticked++; }
#define CATCH(n) ERROR { caught++; }

D100(HASH, 1) D100(HASH, 2) D100(HASH, 3) D100(HASH, 4) D100(HASH, 5) D100(HASH, 6)

BEGIN
{
	printf("%d clauses, hash %d\n", begun, hash);
}

BEGIN
{
	zero = 0;
	x = 1 / zero;
}

D10(CATCH, 1) D10(CATCH, 2) D10(CATCH, 3) D10(CATCH, 4)

D100(TICK, 1) D100(TICK, 2) D100(TICK, 3)

tick-1s
{
	printf("%d tick clauses, %d ERROR clauses\n", ticked, caught);
	exit(0);
}

D100(TICK, 4)

END
{
	printf("%d tick clauses ran\n", ticked);
}
