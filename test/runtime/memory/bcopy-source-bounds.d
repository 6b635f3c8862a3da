/*
 * bcopy() reads its source within what the clause allocated, as loads do:
 * 10 bytes from a 10-byte allocation at the top are fine, 20 run past it,
 * an invalid-address fault that ends the clause (its output with it).
 */
#pragma D option quiet

BEGIN
{
	to = alloca(24);
	from = alloca(10);
	bcopy(from, to, 10);
	printf("copied 10\n");
}

BEGIN
{
	to = alloca(24);
	from = alloca(10);
	bcopy(from, to, 20);
	printf("copied 20\n");
}

BEGIN
{
	exit(0);
}
