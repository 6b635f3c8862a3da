/* dtx-cpu: 0 */
/*
 * trace() widths at the extremes of each integer size (dtrace-utils'
 * dt_print_trace): signed " %3hhd" " %5hd" " %10d" " %19ld", unsigned
 * " %3hhu" " %5hu" " %10u" " %20lu"; a value wider than its field widens it.
 */

BEGIN
{
	trace((char)-128);
	trace((short)-32768);
	trace((int)-2147483648);
	trace((long long)-9223372036854775807 - 1);
}

BEGIN
{
	trace((unsigned char)255);
	trace((unsigned short)65535);
	trace((unsigned int)4294967295);
	trace((uint64_t)18446744073709551615);
	exit(0);
}
