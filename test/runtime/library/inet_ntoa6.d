/* dtx-args: -q */
/*
 * inet_ntoa6(): an IPv6 address as RFC 5952 writes it (the first longest run
 * of two or more zero words as "::"), an IPv4-mapped or -compatible address
 * as its dotted quad, as DTrace writes them.
 */

in6_addr_t *a;

BEGIN
{
	a = (in6_addr_t *)alloca(sizeof(in6_addr_t));
	printf("%s\n", inet_ntoa6(a));
	a->in6_u.u6_addr8[15] = 1;
	printf("%s\n", inet_ntoa6(a));
	a->in6_u.u6_addr32[0] = htonl(0xfe800000);
	printf("%s\n", inet_ntoa6(a));
	a->in6_u.u6_addr32[2] = htonl(0x02144fff);
	a->in6_u.u6_addr32[3] = htonl(0xfe0b76c8);
	printf("%s\n", inet_ntoa6(a));
	/* IPv4-mapped and IPv4-compatible */
	a->in6_u.u6_addr32[0] = 0;
	a->in6_u.u6_addr32[2] = htonl(0xffff);
	a->in6_u.u6_addr32[3] = htonl(0x7f000001);
	printf("%s\n", inet_ntoa6(a));
	a->in6_u.u6_addr32[2] = 0;
	printf("%s\n", inet_ntoa6(a));
	a->in6_u.u6_addr32[2] = htonl(0xfffe);
	printf("%s\n", inet_ntoa6(a));
	/* the first of two longest runs; a lone zero word is written out */
	a->in6_u.u6_addr32[0] = htonl(0x20010db8);
	a->in6_u.u6_addr32[1] = 0;
	a->in6_u.u6_addr32[2] = htonl(1);
	a->in6_u.u6_addr32[3] = 0;
	printf("%s\n", inet_ntoa6(a));
	a->in6_u.u6_addr32[1] = htonl(0x10000);
	a->in6_u.u6_addr32[3] = htonl(0x10001);
	printf("%s\n", inet_ntoa6(a));
	a->in6_u.u6_addr32[0] = htonl(0x20010000);
	a->in6_u.u6_addr32[1] = htonl(1);
	a->in6_u.u6_addr32[2] = 0;
	printf("%s\n", inet_ntoa6(a));
	a->in6_u.u6_addr32[0] = htonl(0x20010db8);
	a->in6_u.u6_addr32[2] = htonl(0x10000);
	a->in6_u.u6_addr32[3] = 0;
	printf("%s\n", inet_ntoa6(a));
	a->in6_u.u6_addr32[0] = 0xffffffff;
	a->in6_u.u6_addr32[1] = 0xffffffff;
	a->in6_u.u6_addr32[2] = 0xffffffff;
	a->in6_u.u6_addr32[3] = 0xffffffff;
	printf("%s\n", inet_ntoa6(a));
	exit(0);
}
