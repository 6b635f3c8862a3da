/* dtx-args: -q */
/*
 * alloca() gives each call its own zeroed scratch; bcopy() copies into it
 * from memory the program can read (a string here, then the other buffer).
 */

BEGIN
{
	this->a = (char *)alloca(8);
	this->b = (char *)alloca(8);
	bcopy("abcdefg", this->a, 8);
	bcopy(this->a, this->b, 3);
	printf("%s %s %d\n", stringof(this->a), stringof(this->b), this->a != this->b);
	tracemem(this->b, 8);
	exit(0);
}

ERROR
{
	printf("fault %d\n", arg4);
	exit(1);
}
