/* character constants: plain, escaped, octal and hex escapes, quote characters, and multi-character constants */

BEGIN
{
	a = 'a';
	nl = '\n';
	tab = '\t';
	nul = '\0';
	quote = '\'';
	dquote = '"';
	escdquote = '\"';
	bs = '\\';
	oct = '\101';
	hex = '\x41';
	bell = '\a';
	space = ' ';
	two = 'ab';
	eight = 'abcdefgh';
	printf("%c%c%c %d %d %d %d %d %d %d %d %d\n", a, space, a, nl, tab, nul, quote, bs, oct, hex, two, eight);
	printf("%c %c %d\n", dquote, escdquote, bell + 'z' - 'a');
	exit(0);
}
