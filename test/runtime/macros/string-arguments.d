/* dtx-args: -q */
/* dtx-operands: bash '"bash"' /tmp/x 'a b' nosuchname */
/*
 * A macro argument that is neither an integer nor a name is a string, as
 * dtrace's lexer makes it: a path, words with a space, a quoted word (its
 * quotes are not part of it). A bare word that names nothing is a string too.
 */

BEGIN
{
	printf("[%s] [%s] [%s] [%s] [%s]\n", $1, $2, $3, $4, $5);
	printf("%d %d %d %d\n", $1 == $2, strlen($3), strlen($4), $5 == "nosuchname");
	printf("[%s] [%s]\n", $$1, $$2);
	exit(0);
}
