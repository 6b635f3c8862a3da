/* dtx-args: -q */
/* trace() in quiet mode prints unsigned types as unsigned at their own width. */

BEGIN
{
	trace((unsigned char)200);
	trace(" ");
	trace((uint8_t)-1);
	trace(" ");
	trace((unsigned short)65535);
	trace(" ");
	trace((uint32_t)-2);
	trace(" ");
	trace((uint64_t)-1);
	trace(" ");
	trace((int8_t)-128);
	exit(0);
}
