/* dtx-args: -q */
/* Flags combined with widths and precisions, as C printf does them. */

BEGIN
{
	printf("[%-+5d][%+05d][% 05d][%+d][% d][%+d]\n", 7, 7, 7, -3, -3, 0);
	printf("[%#o][%#x][%#X][%#o]\n", 0, 0, 0, 8);
	printf("[%-#8x][%#08x][%#-8o]\n", 255, 255, 8);
	printf("[%5.3d][%-6.2x][%08.3d][%.5u]\n", 7, 10, -7, 42);
	printf("[%-8s][%8.3s][%-8.3s]\n", "left", "truncated", "cut");
	exit(0);
}
