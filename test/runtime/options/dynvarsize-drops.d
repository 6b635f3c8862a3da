/* dtx-args: -q */
/* dtx-timeout: 20 */
/*
 * A dynvarsize far too small for 2000 associative array elements: the first
 * elements are stored, later ones are dropped (and read as 0), tracing goes on.
 */

#pragma D option dynvarsize=1k

BEGIN
{
	i = 0;
}

tick-1ms
/i < 2000/
{
	a[i++] = 1; a[i++] = 1; a[i++] = 1; a[i++] = 1; a[i++] = 1;
	a[i++] = 1; a[i++] = 1; a[i++] = 1; a[i++] = 1; a[i++] = 1;
}

tick-1ms
/i == 2000/
{
	printf("%d %d\n", a[0], a[1999]);
	exit(0);
}
