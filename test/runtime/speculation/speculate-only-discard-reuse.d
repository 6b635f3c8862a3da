/* dtx-args: -q */
/*
 * A clause with speculate() alone sends its record like any other, so the
 * consumer sees all the speculation's records once it is discarded and
 * frees it: the only speculation (nspec=1) can be handed out again. The
 * ticks retry until it is, or give up after 3 s.
 */
#pragma D option nspec=1

BEGIN
{
	first = speculation();
}

BEGIN
{
	speculate(first);
}

BEGIN
{
	discard(first);
	printf("first %d\n", first);
}

tick-10ms
/!again/
{
	again = speculation();
	tries++;
}

tick-10ms
/again && !done/
{
	done = 1;
	printf("handed out again: %d\n", again);
	exit(0);
}

tick-10ms
/!again && tries > 300 && !done/
{
	done = 1;
	printf("speculation %d was never freed\n", first);
	exit(1);
}
