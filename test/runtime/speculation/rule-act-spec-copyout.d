/* dtx-args: -q -w */
/* Destructive subroutines may not follow speculate() either [D_ACT_SPEC]: copyout(), copyoutstr(). */

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	copyout("abcd", 0, 4);
	copyoutstr("x", 0, 2);
}
