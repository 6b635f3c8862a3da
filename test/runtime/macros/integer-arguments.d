/* dtx-args: -q */
/* dtx-operands: 42 0x10 010 +7 -- -5 */
/*
 * An argument that is a D integer constant (decimal, hex, octal, with a
 * sign) is an integer; $$N makes the same text a string.
 */

BEGIN
{
	printf("%d %d %d %d %d\n", $1, $2, $3, $4, $5);
	printf("%d %d %d\n", $1 + $5, $2 * $3, sizeof ($1));
	printf("[%s] [%s] %d\n", $$1, $$5, strlen($$2));
	exit(0);
}
