/* dtx-args: -q */
/* lltostr(), toupper() and tolower(). */

BEGIN
{
	printf("%s %s %s\n", lltostr(0), lltostr(-123), lltostr(9223372036854775807));
	printf("%s %s\n", toupper("Hello, World 42"), tolower("MiXeD CaSe"));
	printf("%s\n", strjoin(lltostr(7), toupper("x")));
	exit(0);
}
