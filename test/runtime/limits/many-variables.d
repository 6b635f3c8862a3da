/* dtx-args: -q -C */
/* dtx-timeout: 30 */
/*
 * 500 thread-locals, 100 associative arrays and 1000 aggregations: far more
 * than the kernel's 64 maps per program. Those of one shape share a map,
 * each told apart by its index in the map.
 */

/* M(100) .. M(599); E10 repeats D10 for use inside it (cpp expands no macro
 * within itself). */
#define D10(m, p) m(p##0) m(p##1) m(p##2) m(p##3) m(p##4) m(p##5) m(p##6) m(p##7) m(p##8) m(p##9)
#define E10(m, p) m(p##0) m(p##1) m(p##2) m(p##3) m(p##4) m(p##5) m(p##6) m(p##7) m(p##8) m(p##9)
#define D100(m, p) D10(m, p##0) D10(m, p##1) D10(m, p##2) D10(m, p##3) D10(m, p##4) \
	D10(m, p##5) D10(m, p##6) D10(m, p##7) D10(m, p##8) D10(m, p##9)
#define D500(m) D100(m, 1) D100(m, 2) D100(m, 3) D100(m, 4) D100(m, 5)

#define SET(n) self->t##n = ++i;
#define AGGREGATE(n) @s##n = sum(self->t##n); @c##n[self->t##n % 3] = count();
#define ARRAY(n) a##n[self->t##n] = self->t##n * 2;
#define CHECK(n) threads += self->t##n == ++j;
#define CHECK_ARRAY(n) arrays += a##n[self->t##n] == self->t##n * 2;

/* An END clause per ten aggregations of each kind. */
#define PRINT_SUM(n) printa(" %@d", @s##n);
#define PRINT_COUNT(n) printa(" %d:%@d", @c##n);
#define PRINT_SUMS(p) END { E10(PRINT_SUM, p) }
#define PRINT_COUNTS(p) END { E10(PRINT_COUNT, p) }

#define AGGREGATE_HUNDRED(p) BEGIN { D100(AGGREGATE, p) }

BEGIN { D500(SET) }
AGGREGATE_HUNDRED(1) AGGREGATE_HUNDRED(2) AGGREGATE_HUNDRED(3) AGGREGATE_HUNDRED(4)
AGGREGATE_HUNDRED(5)
BEGIN { D100(ARRAY, 1) }
BEGIN
{
	D500(CHECK)
	D100(CHECK_ARRAY, 1)
	printf("%d thread-locals, %d arrays\n", threads, arrays);
	exit(0);
}

D10(PRINT_SUMS, 1) D10(PRINT_SUMS, 2) D10(PRINT_SUMS, 3) D10(PRINT_SUMS, 4) D10(PRINT_SUMS, 5)
END { printf("\n"); }
D10(PRINT_COUNTS, 1) D10(PRINT_COUNTS, 2) D10(PRINT_COUNTS, 3) D10(PRINT_COUNTS, 4)
D10(PRINT_COUNTS, 5)
END { printf("\n"); }
