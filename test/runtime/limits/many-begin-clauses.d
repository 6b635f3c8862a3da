/* dtx-args: -q -C */
/* dtx-timeout: 60 */
/*
 * 7,000 BEGIN clauses (issue 18: they ended dtx with LLVM's "Branch target
 * out of insn range" and SIGABRT): blocks of clauses, each within a BPF
 * jump's reach. Each counts, and folds its number into a hash that depends
 * on the clauses running once each, in program order.
 */

/* C(1000) .. C(7999). */
#define D10(m, p) m(p##0) m(p##1) m(p##2) m(p##3) m(p##4) m(p##5) m(p##6) m(p##7) m(p##8) m(p##9)
#define D100(m, p) D10(m, p##0) D10(m, p##1) D10(m, p##2) D10(m, p##3) D10(m, p##4) \
	D10(m, p##5) D10(m, p##6) D10(m, p##7) D10(m, p##8) D10(m, p##9)
#define D1000(m, p) D100(m, p##0) D100(m, p##1) D100(m, p##2) D100(m, p##3) D100(m, p##4) \
	D100(m, p##5) D100(m, p##6) D100(m, p##7) D100(m, p##8) D100(m, p##9)

int n, hash;

#define C(k) BEGIN { n++; hash = (hash * 31 + k) % 1000003; }

D1000(C, 1) D1000(C, 2) D1000(C, 3) D1000(C, 4) D1000(C, 5) D1000(C, 6) D1000(C, 7)

BEGIN
{
	printf("%d clauses, hash %d\n", n, hash);
	exit(0);
}
