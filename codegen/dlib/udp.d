/*
 * UDP as DTrace's udp.d shows it: the udp provider's udpsinfo_t (the
 * socket) and udpinfo_t (the datagram's header).
 */

typedef struct udpsinfo {
	uintptr_t udps_addr;	/* the struct sock */
	uint16_t udps_lport;
	uint16_t udps_rport;
	string udps_laddr;
	string udps_raddr;
} udpsinfo_t;

typedef struct udpinfo {
	uint16_t udp_sport;
	uint16_t udp_dport;
	uint16_t udp_length;	/* header and payload, bytes */
	uint16_t udp_checksum;
	uintptr_t udp_hdr;
} udpinfo_t;

translator udpsinfo_t < struct sock *S > {
	udps_addr = (uintptr_t)S;
	udps_lport = S->__sk_common.skc_num;
	udps_rport = ntohs(S->__sk_common.skc_dport);
	udps_laddr = S->__sk_common.skc_family == AF_INET ?
	    inet_ntoa(&S->__sk_common.skc_rcv_saddr) :
	    inet_ntoa6(&S->__sk_common.skc_v6_rcv_saddr);
	udps_raddr = S->__sk_common.skc_family == AF_INET ?
	    inet_ntoa(&S->__sk_common.skc_daddr) :
	    inet_ntoa6(&S->__sk_common.skc_v6_daddr);
};

translator udpinfo_t < struct udphdr *H > {
	udp_sport = ntohs(H->source);
	udp_dport = ntohs(H->dest);
	udp_length = ntohs(H->len);
	udp_checksum = ntohs(H->check);
	udp_hdr = (uintptr_t)H;
};
