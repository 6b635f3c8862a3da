/* dtx-args: -q */
/* trace() of strings in quiet mode: the bytes only. */

BEGIN
{
	trace("hello");
	trace(", ");
	trace("world");
	trace("\n");
	s = "again";
	trace(s);
	exit(0);
}
