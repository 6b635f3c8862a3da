/* byte order conversion functions htons ntohs htonl ntohl htonll ntohll, and rand() */

BEGIN
{
	a = htons(0x1234);
	b = ntohs(a);
	c = htonl(0x12345678);
	d = ntohl(c);
	e = htonll(0x0102030405060708ULL);
	f = ntohll(e);
	r = rand();
	sample = rand() % 100 < 10;
	printf("%x %x %x %x %x %x %d %d\n", a, b, c, d, e, f, r, sample);
	exit(0);
}
