/*
 * TCP as DTrace's tcp.d shows it: the tcp provider's own argument types
 * (tcpsinfo_t, tcpinfo_t, tcplsinfo_t; pktinfo_t, csinfo_t and ipinfo_t are
 * net_ip.d's), the
 * TCP states as Linux numbers them (dtrace-utils' TCP_STATE_* values) with
 * tcp_state_string[], and the TCP header flags.
 */

inline int TH_FIN = 0x01;
inline int TH_SYN = 0x02;
inline int TH_RST = 0x04;
inline int TH_PSH = 0x08;
inline int TH_ACK = 0x10;
inline int TH_URG = 0x20;
inline int TH_ECE = 0x40;
inline int TH_CWR = 0x80;

inline int TCP_STATE_IDLE = 0;
inline int TCP_STATE_ESTABLISHED = 1;
inline int TCP_STATE_SYN_SENT = 2;
inline int TCP_STATE_SYN_RECEIVED = 3;
inline int TCP_STATE_FIN_WAIT_1 = 4;
inline int TCP_STATE_FIN_WAIT_2 = 5;
inline int TCP_STATE_TIME_WAIT = 6;
inline int TCP_STATE_CLOSED = 7;
inline int TCP_STATE_CLOSE_WAIT = 8;
inline int TCP_STATE_LAST_ACK = 9;
inline int TCP_STATE_LISTEN = 10;
inline int TCP_STATE_CLOSING = 11;

inline string tcp_state_string[int32_t state] =
	state == TCP_STATE_CLOSED ? "state-closed" :
	state == TCP_STATE_IDLE ? "state-idle" :
	state == TCP_STATE_LISTEN ? "state-listen" :
	state == TCP_STATE_SYN_SENT ? "state-syn-sent" :
	state == TCP_STATE_SYN_RECEIVED ? "state-syn-received" :
	state == TCP_STATE_ESTABLISHED ? "state-established" :
	state == TCP_STATE_CLOSE_WAIT ? "state-close-wait" :
	state == TCP_STATE_FIN_WAIT_1 ? "state-fin-wait-1" :
	state == TCP_STATE_CLOSING ? "state-closing" :
	state == TCP_STATE_LAST_ACK ? "state-last-ack" :
	state == TCP_STATE_FIN_WAIT_2 ? "state-fin-wait-2" :
	state == TCP_STATE_TIME_WAIT ? "state-time-wait" : "<unknown>";

typedef struct tcpinfo {
	uint16_t tcp_sport;
	uint16_t tcp_dport;
	uint32_t tcp_seq;
	uint32_t tcp_ack;
	uint8_t tcp_offset;
	uint8_t tcp_flags;
	uint16_t tcp_window;
	uint16_t tcp_checksum;
	uint16_t tcp_urgent;
	uintptr_t tcp_hdr;
} tcpinfo_t;

typedef struct tcpsinfo {
	uintptr_t tcps_addr;	/* the struct sock */
	int tcps_local;		/* both ends on this host (same address) */
	int tcps_active;	/* not kept: 0 */
	uint16_t tcps_lport;
	uint16_t tcps_rport;
	string tcps_laddr;
	string tcps_raddr;
	int32_t tcps_state;	/* TCP_STATE_* */
	uint32_t tcps_iss;	/* not kept: 0 */
	uint32_t tcps_suna;
	uint32_t tcps_snxt;
	uint32_t tcps_rack;
	uint32_t tcps_rnxt;
	uint32_t tcps_swnd;
	int32_t tcps_snd_ws;
	uint32_t tcps_rwnd;
	int32_t tcps_rcv_ws;
	uint32_t tcps_cwnd;
	uint32_t tcps_cwnd_ssthresh;
	uint32_t tcps_sack_fack;	/* not kept: 0 */
	uint32_t tcps_sack_snxt;	/* not kept: 0 */
	uint32_t tcps_rto;
	uint32_t tcps_mss;
	int tcps_retransmit;	/* retransmissions of the current segment */
	uint32_t tcps_rtt;	/* smoothed round-trip time, us */
	uint32_t tcps_rtt_sd;	/* its mean deviation, us */
	uint32_t tcps_irs;	/* not kept: 0 */
} tcpsinfo_t;

typedef struct tcplsinfo {
	int32_t tcps_state;	/* the previous state */
} tcplsinfo_t;

/* What sock:inet_sock_set_state passes: the socket, its old and new state. */
struct _dtx_sock_state_change {
	struct sock *sk;
	int64_t oldstate;
	int64_t newstate;
};

translator tcplsinfo_t < int S > {
	tcps_state = S;
};

translator tcpsinfo_t < struct _dtx_sock_state_change *C > {
	tcps_addr = (uintptr_t)C->sk;
	tcps_local = C->sk->__sk_common.skc_family == AF_INET ?
	    C->sk->__sk_common.skc_rcv_saddr == C->sk->__sk_common.skc_daddr :
	    inet_ntoa6(&C->sk->__sk_common.skc_v6_rcv_saddr) ==
	    inet_ntoa6(&C->sk->__sk_common.skc_v6_daddr);
	tcps_active = 0;
	tcps_lport = C->sk->__sk_common.skc_num;
	tcps_rport = ntohs(C->sk->__sk_common.skc_dport);
	tcps_laddr = C->sk->__sk_common.skc_family == AF_INET ?
	    inet_ntoa(&C->sk->__sk_common.skc_rcv_saddr) :
	    inet_ntoa6(&C->sk->__sk_common.skc_v6_rcv_saddr);
	tcps_raddr = C->sk->__sk_common.skc_family == AF_INET ?
	    inet_ntoa(&C->sk->__sk_common.skc_daddr) :
	    inet_ntoa6(&C->sk->__sk_common.skc_v6_daddr);
	tcps_state = C->newstate;
	tcps_iss = 0;
	tcps_suna = ((struct tcp_sock *)C->sk)->snd_una;
	tcps_snxt = ((struct tcp_sock *)C->sk)->snd_nxt;
	tcps_rack = ((struct tcp_sock *)C->sk)->rcv_wup;
	tcps_rnxt = ((struct tcp_sock *)C->sk)->rcv_nxt;
	tcps_swnd = ((struct tcp_sock *)C->sk)->snd_wnd;
	tcps_snd_ws = ((struct tcp_sock *)C->sk)->rx_opt.snd_wscale;
	tcps_rwnd = ((struct tcp_sock *)C->sk)->rcv_wnd;
	tcps_rcv_ws = ((struct tcp_sock *)C->sk)->rx_opt.rcv_wscale;
	tcps_cwnd = ((struct tcp_sock *)C->sk)->snd_cwnd;
	tcps_cwnd_ssthresh = ((struct tcp_sock *)C->sk)->snd_ssthresh;
	tcps_sack_fack = 0;
	tcps_sack_snxt = 0;
	tcps_rto = ((struct inet_connection_sock *)C->sk)->icsk_rto;
	tcps_mss = ((struct tcp_sock *)C->sk)->mss_cache;
	tcps_retransmit = ((struct inet_connection_sock *)C->sk)->icsk_retransmits;
	tcps_rtt = ((struct tcp_sock *)C->sk)->srtt_us >> 3;
	tcps_rtt_sd = ((struct tcp_sock *)C->sk)->mdev_us >> 2;
	tcps_irs = 0;
};
