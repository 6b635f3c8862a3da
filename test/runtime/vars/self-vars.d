/* dtx-args: -q */
/*
 * Thread-local variables keep their value across clauses of the same thread;
 * assigning 0 deletes one, and reading it then gives 0.
 */

BEGIN
{
	self->a = 1;
	self->s = "thread";
}

BEGIN
{
	self->a++;
	printf("%d %s\n", self->a, self->s);
	self->a = 0;
	printf("%d\n", self->a);
	exit(0);
}
