/* dtx-args: -q -x version=1.6.4 */
/*
 * The D versions dtrace defines are accepted, however spelled ("2" is 2.0,
 * "2.0.0" too), by -x and #pragma D option.
 */

#pragma D option version=2
#pragma D option version=2.0.0

BEGIN
{
	printf("ok\n");
	exit(0);
}
