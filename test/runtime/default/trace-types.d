/* dtx-cpu: 0 */
/*
 * Default output of trace() by type (dtrace-utils): signed 1, 2, 4, 8 bytes
 * as " %3hhd", " %5hd", " %10d", " %19ld"; unsigned as " %3hhu", " %5hu",
 * " %10u", " %20lu"; a string as "  %-33s".
 */

BEGIN
{
	trace((char)-1);
	trace((short)-2);
	trace(-3);
	trace((long long)-4);
	trace("str");
}

BEGIN
{
	trace((unsigned char)200);
	trace((unsigned short)65535);
	trace((unsigned int)4000000000);
	trace((uint64_t)7);
	exit(0);
}
