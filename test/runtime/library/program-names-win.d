/* dtx-args: -q */
/*
 * The program's own enumerators, inlines and variables stand in front of
 * the D library's constants of the same names.
 */

enum family { AF_INET = 5 };
inline int EPERM = 100;

BEGIN
{
	EIO = 7;
	printf("%d %d %d %d\n", AF_INET, EPERM, EIO, AF_INET6);
	exit(0);
}
