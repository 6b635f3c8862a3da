/* invalid: a stray ) at the outer scope after a clause */

BEGIN
{
	exit(0);
}
)
