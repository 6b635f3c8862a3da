/* dtx-args: -q -w */
/*
 * chill() records no data, so speculate() may follow it, as in dtrace.
 */

BEGIN
{
	self->spec = speculation();
}

BEGIN
{
	chill(1);
	speculate(self->spec);
	printf("speculated\n");
}

BEGIN
{
	commit(self->spec);
}

BEGIN
{
	printf("committed\n");
	exit(0);
}
