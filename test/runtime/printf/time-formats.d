/* dtx-args: -q */
/*
 * %Y and %T of a 64-bit count of nanoseconds since the epoch (the test runs
 * with TZ=UTC).
 */

BEGIN
{
	t = (uint64_t)86400 * 1000000000 + (uint64_t)3723 * 1000000000;
	printf("%Y\n", t);
	printf("%T\n", t);
	printf("[%25Y]\n", (int64_t)0);
	exit(0);
}
