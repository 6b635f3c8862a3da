/* dtx-args: -q -x bufsize=4k -x droptags=0 */
/*
 * droptags, given any value (dtrace reads none), tags the report of records
 * the principal buffer had no room for: of BEGIN's five records of 1 KiB a
 * 4 KiB buffer takes three (the same cause as bufsize.d, in fewer clauses).
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
	exit(0);
}
