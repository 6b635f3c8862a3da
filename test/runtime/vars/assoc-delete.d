/* dtx-args: -q */
/* Elements created by ++ in tick firings, deleted by assigning 0, created again. */

BEGIN
{
	i = 0;
}

tick-1ms
/i < 4/
{
	c[i % 2]++;
	i++;
}

tick-1ms
/i == 4/
{
	printf("%d %d\n", c[0], c[1]);
	c[0] = 0;
	printf("%d %d\n", c[0], c[1]);
	c[0] += 5;
	printf("%d %d\n", c[0], c[1]);
	exit(0);
}
