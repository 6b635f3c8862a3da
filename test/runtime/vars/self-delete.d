/* dtx-args: -q */
/*
 * Thread-local variables of different types; assigning 0 (or the empty
 * string to a string) frees one and it reads as 0 / "" afterwards.
 */

BEGIN
{
	self->n = 10;
	self->s = "text";
	self->n *= 3;
}

BEGIN
{
	printf("%d %s\n", self->n, self->s);
	self->n = 0;
	self->s = "";
	printf("%d [%s]\n", self->n, self->s);
	self->n = 7;
	printf("%d\n", self->n);
	exit(0);
}
