/* dtx-args: -q */
/*
 * Where DTrace's printf differs from C's: of '-' and '0' the one written
 * last wins; flags may follow the width; a precision of 0 is ignored (for
 * integers and strings, and through '*'); a negative '*' width left-aligns.
 */

BEGIN
{
	printf("[%-05d][%0-5d][%5-d]\n", 7, 7, 7);
	printf("[%.0d][%.0s][%.*s]\n", 0, "abc", 0, "xyz");
	printf("[%*d][%*s]\n", -6, 42, -5, "ab");
	exit(0);
}
