/* dtx-args: -q -w */
/* Destructive actions may not follow speculate() [D_ACT_SPEC]: system(). */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	system("echo %d", spec);
}
