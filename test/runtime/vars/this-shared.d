/* dtx-args: -q */
/*
 * A clause-local variable keeps its value across the clauses of one probe
 * firing (each tick firing sets it again before reading it).
 */

BEGIN
{
	this->x = 5;
	this->s = "first clause";
}

BEGIN
{
	this->x++;
	printf("%d %s\n", this->x, this->s);
}

tick-10ms
{
	this->n = ++n;
}

tick-10ms
{
	printf("tick %d\n", this->n);
}

tick-10ms
/n == 2/
{
	exit(0);
}
