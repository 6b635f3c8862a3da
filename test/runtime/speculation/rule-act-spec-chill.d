/* dtx-args: -q -w */
/* Destructive actions may not follow speculate() [D_ACT_SPEC]: chill(). */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	chill(1000);
}
