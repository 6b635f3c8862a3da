/* dtx-args: -q -x bufsize=4k */
/*
 * Records that do not fit the principal buffer are dropped and counted: the
 * BEGIN clauses run before dtx reads the buffer, so of their ten records
 * (four strings of 256 characters each) a 4 KiB buffer takes the first
 * three and drops the rest, every time the same.
 */

BEGIN
{
	s = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	s = strjoin(strjoin(s, s), strjoin(s, s));
}

BEGIN
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

BEGIN
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

BEGIN
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

BEGIN
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

BEGIN
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

BEGIN
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

BEGIN
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

BEGIN
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

BEGIN
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

BEGIN
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

BEGIN
{
	exit(0);
}
