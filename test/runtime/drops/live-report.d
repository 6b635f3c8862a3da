/* dtx-args: -q -x bufsize=4k */
/*
 * Drops are reported while tracing goes on (at most once a second), not only
 * at the end: BEGIN's ten records overflow a 4 KiB buffer by seven, which the
 * report after the first second says, with the option to raise; END's ten
 * overflow it by seven more, said at the end as a count of its own.
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

END
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

END
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

END
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

END
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

END
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

END
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

END
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

END
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

END
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

END
{
	printf("%s\n", s); printf("%s\n", s); printf("%s\n", s); printf("%s\n", s);
}

tick-2s
{
	exit(0);
}
