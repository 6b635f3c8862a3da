/* dtx-args: -q -w */
/* Destructive actions may not follow speculate() [D_ACT_SPEC]: raise(). */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	raise(SIGUSR1);
}
