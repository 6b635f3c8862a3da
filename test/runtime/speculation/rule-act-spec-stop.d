/* dtx-args: -q -w */
/* Destructive actions may not follow speculate() [D_ACT_SPEC]: stop(). */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	stop();
}
