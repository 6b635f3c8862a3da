/* dtx-args: -q */
/* net.d: address families, IP protocols, ARP hardware and Ethernet types. */

BEGIN
{
	printf("%d %d %d %d %d\n", AF_UNSPEC, AF_UNIX, AF_INET, AF_INET6, AF_PACKET);
	printf("%d %d %d %d\n", IPPROTO_ICMP, IPPROTO_TCP, IPPROTO_UDP, IPPROTO_ICMPV6);
	printf("%d %d %d\n", ARPHRD_ETHER, ARPHRD_INFINIBAND, ARPHRD_LOOPBACK);
	printf("%x %x %x\n", ETHERTYPE_IP, ETHERTYPE_ARP, ETHERTYPE_IPV6);
	this->af = 10;
	printf("%s\n", this->af == AF_INET6 ? "IPv6" : "IPv4");
	printf("%d %d\n", sizeof(ipaddr_t), sizeof(in6_addr_t));
	exit(0);
}
