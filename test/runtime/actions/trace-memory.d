/* dtx-args: -q */
/*
 * trace() of memory records exactly its bytes, as dtrace: a 1-byte struct
 * dumps one byte; a char array prints as a string when its chars are
 * printable up to NULs that end it (or it has no NUL), else it dumps.
 */

char holes[9];
char text[9];
char full[4];
struct { int8_t x; } one;

BEGIN
{
	holes[0] = 'a'; holes[1] = 'A'; holes[3] = 'B'; holes[5] = 'C'; holes[7] = 'D';
	holes[8] = 'e';
	text[0] = 'a'; text[1] = 'A'; text[2] = 'b';
	full[0] = 'w'; full[1] = 'x'; full[2] = 'y'; full[3] = 'z';
	one.x = 0x34;
	trace(holes);
	printf("\n[");
	trace(text);
	printf("][");
	trace(full);
	printf("]");
	trace(one);
	exit(0);
}
