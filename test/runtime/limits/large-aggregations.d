/* dtx-args: -q -C */
/* dtx-timeout: 20 */
/*
 * 2,000 aggregations, a clause each, compile and load within the timeout
 * (issue 18: 8 s to compile and 30 s to load, as the kernel rewrote each
 * clause's inlined map lookups one after the other). Keyed by a string and
 * an integer: each key's first update inserts it (one function for all,
 * dtx_agg_insert); past 512 lookups they go through dtx_map_lookup.
 */

/* A(1000) .. A(2999) */
#define D10(m, p) m(p##0) m(p##1) m(p##2) m(p##3) m(p##4) m(p##5) m(p##6) m(p##7) m(p##8) m(p##9)
#define D100(m, p) D10(m, p##0) D10(m, p##1) D10(m, p##2) D10(m, p##3) D10(m, p##4) \
	D10(m, p##5) D10(m, p##6) D10(m, p##7) D10(m, p##8) D10(m, p##9)
#define D1000(m, p) D100(m, p##0) D100(m, p##1) D100(m, p##2) D100(m, p##3) D100(m, p##4) \
	D100(m, p##5) D100(m, p##6) D100(m, p##7) D100(m, p##8) D100(m, p##9)

#define A(k) BEGIN { @a##k[probename, k] = sum(k); }

D1000(A, 1) D1000(A, 2)

BEGIN
{
	exit(0);
}
