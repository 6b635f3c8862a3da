/* dtx-args: -q */
/*
 * Four speculations, two committed and two discarded in one clause: only the
 * committed ones print, in the order of the commit() calls.
 */
#pragma D option nspec=4

BEGIN
{
	a = speculation();
	b = speculation();
	c = speculation();
	d = speculation();
	printf("speculation IDs: %d %d %d %d\n", a, b, c, d);
}

BEGIN { speculate(a); printf("speculating on %d\n", a); }
BEGIN { speculate(b); printf("speculating on %d\n", b); }
BEGIN { speculate(c); printf("speculating on %d\n", c); }
BEGIN { speculate(d); printf("speculating on %d\n", d); }

BEGIN
{
	commit(d);
	discard(c);
	commit(b);
	discard(a);
}

BEGIN
{
	exit(0);
}

ERROR
{
	exit(1);
}
