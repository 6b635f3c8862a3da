/* dtx-args: -q -x lockmem=1g -x lazyload */
/*
 * Options dtrace defines that dtx has no use for: accepted, each with a
 * one-line notice (once); rates and quietresize need nothing and say
 * nothing.
 */

#pragma D option jstackstrsize=512
#pragma D option lockmem=2g
#pragma D option quietresize
#pragma D option statusrate=1s

BEGIN
{
	printf("traced\n");
	exit(0);
}
