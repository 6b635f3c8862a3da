/* dtx-args: -q */
/*
 * droptags: a drop report starts with its kind's tag, as dtrace's does.
 * 100 bytes of dynvarsize hold one element, so two of the three stores
 * below are dynamic variable drops.
 */

#pragma D option droptags
#pragma D option dynvarsize=100

BEGIN
{
	a[1] = 1;
	a[2] = 2;
	a[3] = 3;
	exit(0);
}
