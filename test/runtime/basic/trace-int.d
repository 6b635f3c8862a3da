/* dtx-args: -q */
/* trace() of integers in quiet mode: "%d" or "%u" by the type, no padding. */

BEGIN
{
	trace(42);
	trace(" ");
	trace(-7);
	trace(" ");
	trace(2147483647);
	trace(" ");
	trace((char)-2);
	trace(" ");
	trace((short)-300);
	trace(" ");
	trace((long long)-9000000000);
	trace(" ");
	trace((unsigned int)4000000000);
	exit(0);
}
