/* dtx-args: -q */
/*
 * inet_ntoa6()'s strict argument is an integer constant: a variable or a
 * string is refused, and so are no arguments and a third one.
 */

in6_addr_t *a;
int n;

BEGIN
{
	trace(inet_ntoa6(a, n));
	trace(inet_ntoa6(a, "1"));
	trace(inet_ntoa6(a, 1, 2));
	trace(inet_ntoa6());
}
