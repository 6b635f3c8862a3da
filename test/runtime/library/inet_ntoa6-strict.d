/* dtx-args: -q */
/*
 * inet_ntoa6(addr, strict): strict 0 is inet_ntoa6(addr), an IPv4-mapped
 * or -compatible address as its dotted quad alone; any other constant keeps
 * the IPv6 prefix ("::ffff:" or "::") before the dotted quad. Addresses that
 * are neither print the same either way.
 */

in6_addr_t *a;

BEGIN
{
	a = (in6_addr_t *)alloca(sizeof(in6_addr_t));
	a->in6_u.u6_addr32[2] = htonl(0xffff);
	a->in6_u.u6_addr32[3] = htonl(0xc0a80117);
	printf("mapped:     %s %s %s %s\n", inet_ntoa6(a), inet_ntoa6(a, 0),
	    inet_ntoa6(a, 1), inet_ntoa6(a, -3));
	a->in6_u.u6_addr32[2] = 0;
	a->in6_u.u6_addr32[3] = htonl(0x7f000001);
	printf("compatible: %s %s %s\n", inet_ntoa6(a), inet_ntoa6(a, 0), inet_ntoa6(a, 2));
	a->in6_u.u6_addr32[3] = htonl(2);
	printf("low:        %s %s\n", inet_ntoa6(a, 0), inet_ntoa6(a, 1));
	a->in6_u.u6_addr32[3] = htonl(1);
	printf("loopback:   %s %s\n", inet_ntoa6(a, 0), inet_ntoa6(a, 1));
	a->in6_u.u6_addr32[0] = htonl(0xfe800000);
	a->in6_u.u6_addr32[3] = htonl(0x7f000001);
	printf("neither:    %s %s\n", inet_ntoa6(a, 0), inet_ntoa6(a, 1));
	exit(0);
}
