/* dtx-args: -q -C */
/*
 * llquantize() of 19 orders of magnitude (10^19 is past INT64_MAX but within
 * 64 bits, as dtrace allows), and 70 llquantize() of 19 to 63 magnitudes in
 * one clause: their bucket code fits the 512 bytes of BPF stack. (Few of them
 * are keyed: a new key of a large per-CPU value is allocated where the
 * program runs, and under memory pressure that can fail, an aggregation
 * drop.)
 */

#define D10(m, p) m(p##0) m(p##1) m(p##2) m(p##3) m(p##4) m(p##5) m(p##6) m(p##7) m(p##8) m(p##9)

#define BINARY(n) @b##n = llquantize((int64_t)n << 40, 2, 0, 62, 4);
#define DECIMAL(n) @d##n = llquantize(-n * 1000000000000, 10, 0, 18, 100);
#define KEYED(n) @k##n[n] = llquantize(n, 10, 0, 18, 10);
#define DROP(n) trunc(@b##n);
#define DROP_DECIMAL(n) trunc(@d##n);
#define DROP_KEYED(n) trunc(@k##n);

BEGIN
{
	@low = llquantize(12345, 10, 0, 18, 100);
	@low = llquantize(12399, 10, 0, 18, 100);
	@negative = llquantize(-7, 10, 0, 18, 100);
	@high = llquantize(9000000000000000000, 10, 0, 18, 100);
	@high = llquantize(9223372036854775807, 10, 0, 18, 100);
}

BEGIN
{
	D10(BINARY, 1) D10(BINARY, 2) D10(BINARY, 3) D10(BINARY, 4)
	D10(DECIMAL, 1) D10(DECIMAL, 2)
	D10(KEYED, 1)
	exit(0);
}

END
{
	printa(@b33);
	printa(@d21);
	printa(@k17);
	D10(DROP, 1) D10(DROP, 2) D10(DROP, 3) D10(DROP, 4)
	D10(DROP_DECIMAL, 1) D10(DROP_DECIMAL, 2) D10(DROP_KEYED, 1)
}
