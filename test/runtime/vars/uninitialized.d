/* dtx-args: -q */
/*
 * Declared variables start as 0 or the empty string; a thread-local or an
 * associative array element that was never assigned reads as 0.
 */

int64_t g;
string str;
uint8_t small;
self int t;

BEGIN
/0/
{
	arr[0] = 1;
}

BEGIN
{
	printf("%d [%s] %d %d %d\n", g, str, small, self->t, arr[42]);
	small = 250;
	small += 10;
	printf("%d %d\n", small, strlen(str));
	exit(0);
}
