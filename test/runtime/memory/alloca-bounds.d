/* dtx-args: -q -x scratchsize=64 */
/*
 * alloca() as dtrace has it: allocations are 8-byte aligned and packed,
 * alloca(0) gives the top without moving it, and a clause has scratchsize
 * bytes in all. Loads and stores outside what the clause has allocated
 * (before the first allocation, past the top, in an earlier clause's
 * allocation) are invalid addresses; more than scratchsize is out of
 * scratch space. Each fault ends its clause only.
 */

BEGIN
{
	a = alloca(1);
	b = alloca(1);
	c = alloca(0);
	d = alloca(0);
	e = alloca(9);
	f = alloca(0);
	printf("%d %d %d %d\n", b - a, c - b, d - c, f - e);
}

BEGIN
{
	s = (char *)alloca(15);
	s[0] = 'h';
	s[1] = 'i';
	printf("%c%c %d %d\n", s[0], s[1], s[14], s[15]);
}

BEGIN { s = (char *)alloca(15); trace(s[-1]); }
BEGIN { s = (char *)alloca(15); trace(s[16]); }
BEGIN { s = (char *)alloca(15); trace(*(uint64_t *)(s + 12)); }
BEGIN { s = (char *)alloca(15); s[16] = 1; }
BEGIN { s = (char *)alloca(15); s[-1] = 1; }
BEGIN { t = (char *)alloca(16); bcopy(t, t + 8, 9); }
BEGIN { p = (int *)alloca(8); *p = 7; }
BEGIN { trace(*p); }
BEGIN { *p = 8; }
BEGIN { x = alloca(64); y = alloca(1); }
BEGIN { n = 65; x = alloca(n); }

BEGIN
{
	this->x = (int *)alloca(4);
	*this->x = 42;
	printf("%d %d\n", *this->x, (int)this->x == (int)(uint64_t)this->x);
	exit(0);
}

ERROR
{
	printf("action %d: fault %d\n", arg2, arg4);
}
