/* dtx-args: -q */
/* %c of char, short and int values; %C escapes non-printable characters. */

BEGIN
{
	printf("[%c%c%c]\n", (char)'a', (short)98, 99);
	printf("[%C][%C][%C][%C]\n", 'x', '\n', '\\', (char)1);
	printf("[%-3c][%03c]\n", 'z', 'q');
	exit(0);
}
