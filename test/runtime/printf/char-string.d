/* dtx-args: -q */
/* %c of characters and ints, %s, and %S (non-printable characters escaped). */

BEGIN
{
	printf("[%c][%c%c]\n", 'A', 104, 105);
	printf("[%s][%S]\n", "plain", "tab\there");
	printf("[%5c][%-3c]\n", 'x', 'y');
	exit(0);
}
