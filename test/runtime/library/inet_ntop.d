/* dtx-args: -q */
/*
 * inet_ntop(af, addr): AF_INET as inet_ntoa(); AF_INET6 as inet_ntoa6(),
 * but an IPv4-mapped or -compatible address keeps its IPv6 prefix.
 */

BEGIN
{
	this->v4 = (ipaddr_t *)alloca(sizeof(ipaddr_t));
	*this->v4 = htonl(0xc0a80117);
	printf("%s\n", inet_ntop(AF_INET, this->v4));
	this->v6 = (in6_addr_t *)alloca(sizeof(in6_addr_t));
	this->v6->in6_u.u6_addr8[0] = 0xfe;
	this->v6->in6_u.u6_addr8[1] = 0x80;
	this->v6->in6_u.u6_addr8[15] = 0x01;
	printf("%s\n", inet_ntop(AF_INET6, this->v6));
	this->v6->in6_u.u6_addr32[0] = 0;
	this->v6->in6_u.u6_addr32[2] = htonl(0xffff);
	this->v6->in6_u.u6_addr32[3] = htonl(0x7f000001);
	printf("%s\n", inet_ntop(AF_INET6, this->v6));
	this->v6->in6_u.u6_addr32[2] = 0;
	printf("%s\n", inet_ntop(AF_INET6, this->v6));
	this->af = AF_INET;
	printf("%s\n", inet_ntop(this->af, this->v6));
	exit(0);
}
