/* dtx-args: -q */
/*
 * The address functions take a pointer, not a string or an integer;
 * strtoll() and cleanpath() a string; getmajor() an integer.
 */

BEGIN
{
	trace(inet_ntoa("127.0.0.1"));
	trace(inet_ntoa6(1));
	trace(inet_ntop(AF_INET, "addr"));
	trace(inet_ntop("AF_INET", (void *)0));
	trace(link_ntop(ARPHRD_ETHER, 12345));
	trace(strtoll(42));
	trace(strtoll("42", "10"));
	trace(cleanpath(1));
	trace(getmajor("8"));
	trace(inet_ntoa());
}
