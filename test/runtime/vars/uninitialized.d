/* dtx-args: -q */
/*
 * Declared variables start as 0, or NULL for a string; a thread-local or an
 * associative array element that was never assigned reads as 0. Reading the
 * characters of a NULL string is an invalid address (0x0) that ends its
 * clause only: the probe's next clause still runs.
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
	printf("%d %d %d %d %d\n", g, str == NULL, small, self->t, arr[42]);
	small = 250;
	small += 10;
	printf("%d\n", small);
}

BEGIN
{
	printf("%d\n", strlen(str));
	printf("not reached\n");
}

BEGIN
{
	str = "";
	printf("%d %d\n", str == NULL, strlen(str));
	exit(0);
}

ERROR
{
	printf("fault %d at %d\n", arg4, arg5);
}
