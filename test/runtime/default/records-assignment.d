/* dtx-cpu: 0 */
/*
 * A clause that only assigns variables records nothing, so it prints no
 * probe line, as in dtrace-utils (only data-recording actions write a
 * record).
 */

BEGIN
{
	i = 1;
	self->t = 2;
	this->u = 3;
}

BEGIN
{
	trace(i);
	exit(0);
}
