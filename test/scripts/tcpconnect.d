#!/usr/sbin/dtx -s
/*
 * tcpconnect: every active TCP connection attempt (connect(2)), as the
 * socket goes from CLOSE to SYN_SENT, IPv4 and IPv6.
 * Usage: tcpconnect.d                  (Ctrl-C to stop)
 *        dtx -s tcpconnect.d -c 'cmd'  (stops when cmd exits)
 * Columns: PID and COMM the connecting process, IP 4 or 6, SADDR the source
 *          address, DADDR the destination address, DPORT its port.
 */
#pragma D option quiet
#pragma D option switchrate=10hz

inline int TCP_SYN_SENT = 2;
inline int TCP_CLOSE = 7;

BEGIN
{
	printf("%7s %-16s %2s %-39s %-39s %5s\n", "PID", "COMM", "IP", "SADDR", "DADDR", "DPORT");
}

/*
 * sock:inet_sock_set_state: args[0] skaddr (the struct sock), 1 oldstate,
 * 2 newstate, 4 dport, 5 family, 6 protocol. The addresses are read from
 * the socket, whose IPv6 ones the tracepoint's first ten fields lack.
 */
sdt:sock::inet_sock_set_state
/args[1] == TCP_CLOSE && args[2] == TCP_SYN_SENT && args[6] == IPPROTO_TCP/
{
	this->sk = (struct sock *)args[0];
	this->v6 = args[5] == AF_INET6;
	printf("%7d %-16s %2d %-39s %-39s %5d\n", pid, execname, this->v6 ? 6 : 4,
	    this->v6 ? inet_ntop(AF_INET6, &this->sk->__sk_common.skc_v6_rcv_saddr) :
	    inet_ntop(AF_INET, &this->sk->__sk_common.skc_rcv_saddr),
	    this->v6 ? inet_ntop(AF_INET6, &this->sk->__sk_common.skc_v6_daddr) :
	    inet_ntop(AF_INET, &this->sk->__sk_common.skc_daddr),
	    args[4]);
}
