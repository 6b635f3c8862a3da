/* dtx-args: -q -w */
/*
 * A file freopen() cannot open is dtrace's error on stderr, and the output
 * stays where it was: "..", and "." made by a conversion ("." itself is
 * refused when compiling, see freopen-dot.d). The trace goes on.
 */

BEGIN
{
	freopen("..");
	freopen("%s", ".");
	freopen("%c%c", '.', '.');
	printf("%d", ++i);
	printf("%d", ++i);
}

BEGIN
/i == 2/
{
	printf("%d\n", ++i);
	exit(0);
}
