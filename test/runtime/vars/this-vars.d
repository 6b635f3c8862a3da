/* dtx-args: -q */
/* Clause-local variables. */

BEGIN
{
	this->x = 5;
	this->y = this->x * 2;
	this->s = "local";
	printf("%d %d %s\n", this->x, this->y, this->s);
}

BEGIN
{
	this->x = 7;
	printf("%d\n", this->x);
	exit(0);
}
