/* dtx-args: -q */
/* rand() gives different values from one call to the next. */

BEGIN
{
	a = rand();
	b = rand();
	c = rand();
	d = rand();
	printf("%d\n", a != b || b != c || c != d);
	exit(0);
}
