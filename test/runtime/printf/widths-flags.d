/* dtx-args: -q */
/* Widths, precisions, flags, '*' arguments and '?' (pointer width). */

BEGIN
{
	printf("[%5d][%-5d][%05d][%+d][% d]\n", 42, 42, 42, 42, 42);
	printf("[%#o][%#x][%#X][%.3d]\n", 8, 255, 255, 7);
	printf("[%10s][%-10s][%.3s][%10.2s]\n", "abc", "abc", "abcdef", "abcdef");
	printf("[%*d][%-*d][%.*s]\n", 6, 1, 6, 2, 2, "xyz");
	printf("[%?d]\n", 5);
	exit(0);
}
