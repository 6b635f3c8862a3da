/*
 * IP as DTrace's ip.d shows it: the ip provider's argument types (pktinfo_t,
 * csinfo_t, ipinfo_t, ifinfo_t, ipv4info_t, ipv6info_t; the first three the
 * tcp provider's too), translated from the packet (struct sk_buff), its IP
 * header (uint8_t *: its first byte), its socket and its network device.
 */

typedef struct pktinfo {
	uintptr_t pkt_addr;	/* the packet's struct sk_buff */
} pktinfo_t;

typedef struct csinfo {
	uintptr_t cs_addr;	/* the connection's struct sock */
	uint64_t cs_cid;	/* a connection id: the same address */
	pid_t cs_pid;		/* not kept: 0 */
} csinfo_t;

typedef struct ipinfo {
	uint8_t ip_ver;
	uint32_t ip_plength;
	string ip_saddr;
	string ip_daddr;
} ipinfo_t;

translator pktinfo_t < struct sk_buff *B > {
	pkt_addr = (uintptr_t)B;
};

translator csinfo_t < struct sock *S > {
	cs_addr = (uintptr_t)S;
	cs_cid = (uint64_t)S;
	cs_pid = 0;
};

typedef struct ifinfo {
	string if_name;		/* the interface: "lo", "eth0" */
	int8_t if_local;	/* the loopback device */
	int32_t if_ipstack;	/* its network namespace's inode number */
	uintptr_t if_addr;	/* its struct net_device */
} ifinfo_t;

typedef struct ipv4info {
	uint8_t ipv4_ver;
	uint8_t ipv4_ihl;	/* header length, bytes */
	uint8_t ipv4_tos;
	uint16_t ipv4_length;	/* total length, bytes */
	uint16_t ipv4_ident;
	uint8_t ipv4_flags;
	uint16_t ipv4_offset;
	uint8_t ipv4_ttl;
	uint8_t ipv4_protocol;
	string ipv4_protostr;
	uint16_t ipv4_checksum;
	ipaddr_t ipv4_src;
	ipaddr_t ipv4_dst;
	string ipv4_saddr;
	string ipv4_daddr;
	uintptr_t ipv4_hdr;
} ipv4info_t;

typedef struct ipv6info {
	uint8_t ipv6_ver;
	uint8_t ipv6_tclass;
	uint32_t ipv6_flow;
	uint16_t ipv6_plen;
	uint8_t ipv6_nexthdr;
	string ipv6_nextstr;
	uint8_t ipv6_hlim;
	in6_addr_t *ipv6_src;
	in6_addr_t *ipv6_dst;
	string ipv6_saddr;
	string ipv6_daddr;
	uintptr_t ipv6_hdr;
} ipv6info_t;

inline string _dtx_protocol_name[int protocol] =
	protocol == IPPROTO_TCP ? "TCP" : protocol == IPPROTO_UDP ? "UDP" :
	protocol == IPPROTO_ICMP ? "ICMP" : protocol == IPPROTO_ICMPV6 ? "ICMPV6" :
	protocol == IPPROTO_IGMP ? "IGMP" : protocol == IPPROTO_SCTP ? "SCTP" :
	lltostr(protocol);

/* P is the first byte of an IPv4 or IPv6 header. */
translator ipinfo_t < uint8_t *P > {
	ip_ver = *P >> 4;
	ip_plength = *P >> 4 == 4 ?
	    ntohs(((struct iphdr *)P)->tot_len) - (*P & 0xf) * 4 :
	    ntohs(((struct ipv6hdr *)P)->payload_len);
	ip_saddr = *P >> 4 == 4 ? inet_ntoa(&((struct iphdr *)P)->saddr) :
	    inet_ntoa6(&((struct ipv6hdr *)P)->saddr);
	ip_daddr = *P >> 4 == 4 ? inet_ntoa(&((struct iphdr *)P)->daddr) :
	    inet_ntoa6(&((struct ipv6hdr *)P)->daddr);
};

translator ipv4info_t < struct iphdr *H > {
	ipv4_ver = 4;
	ipv4_ihl = H->ihl * 4;
	ipv4_tos = H->tos;
	ipv4_length = ntohs(H->tot_len);
	ipv4_ident = ntohs(H->id);
	/*
	 * As DTrace splits the flags and fragment offset word: its top four
	 * bits are the flags, so that Don't Fragment is 4 and More Fragments 2,
	 * and the offset is the twelve bits below them.
	 */
	ipv4_flags = ntohs(H->frag_off) >> 12;
	ipv4_offset = ntohs(H->frag_off) & 0x0fff;
	ipv4_ttl = H->ttl;
	ipv4_protocol = H->protocol;
	ipv4_protostr = _dtx_protocol_name[H->protocol];
	ipv4_checksum = ntohs(H->check);
	ipv4_src = H->saddr;
	ipv4_dst = H->daddr;
	ipv4_saddr = inet_ntoa(&H->saddr);
	ipv4_daddr = inet_ntoa(&H->daddr);
	ipv4_hdr = (uintptr_t)H;
};

translator ipv6info_t < struct ipv6hdr *H > {
	ipv6_ver = 6;
	ipv6_tclass = (ntohl(*(uint32_t *)H) >> 20) & 0xff;
	ipv6_flow = ntohl(*(uint32_t *)H) & 0xfffff;
	ipv6_plen = ntohs(H->payload_len);
	ipv6_nexthdr = H->nexthdr;
	ipv6_nextstr = _dtx_protocol_name[H->nexthdr];
	ipv6_hlim = H->hop_limit;
	ipv6_src = &H->saddr;
	ipv6_dst = &H->daddr;
	ipv6_saddr = inet_ntoa6(&H->saddr);
	ipv6_daddr = inet_ntoa6(&H->daddr);
	ipv6_hdr = (uintptr_t)H;
};

translator ifinfo_t < struct net_device *D > {
	if_name = stringof(D->name);
	if_local = D->flags & 0x8 ? 1 : 0;	/* IFF_LOOPBACK */
	if_ipstack = D->nd_net.net->ns.inum;
	if_addr = (uintptr_t)D;
};
