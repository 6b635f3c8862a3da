#!/usr/sbin/dtx -s
/*
 * tcpstates: every TCP state change, with the socket's addresses and ports
 * and the time spent in the old state.
 * Usage: tcpstates.d                  (Ctrl-C to stop)
 *        dtx -s tcpstates.d -c 'cmd'  (stops when cmd exits)
 * Columns: SKADDR the socket, PID and COMM the process the change happened
 *          in (often another one, or the kernel in softirq), LADDR LPORT the
 *          local end, RADDR RPORT the remote end, OLDSTATE -> NEWSTATE, MS
 *          milliseconds spent in OLDSTATE (0 when first seen).
 */
#pragma D option quiet
#pragma D option switchrate=10hz

BEGIN
{
	printf("%-18s %7s %-12s %-15s %5s %-15s %5s %-11s    %-11s %7s\n", "SKADDR", "PID",
	    "COMM", "LADDR", "LPORT", "RADDR", "RPORT", "OLDSTATE", "NEWSTATE", "MS");
	state[1] = "ESTABLISHED";
	state[2] = "SYN_SENT";
	state[3] = "SYN_RECV";
	state[4] = "FIN_WAIT1";
	state[5] = "FIN_WAIT2";
	state[6] = "TIME_WAIT";
	state[7] = "CLOSE";
	state[8] = "CLOSE_WAIT";
	state[9] = "LAST_ACK";
	state[10] = "LISTEN";
	state[11] = "CLOSING";
	state[12] = "NEW_SYN_RECV";
}

/*
 * sock:inet_sock_set_state: args[0] skaddr, 1 oldstate, 2 newstate,
 * 3 sport, 4 dport, 5 family, 6 protocol, 7 saddr, 8 daddr (IPv4). IPv6
 * addresses are read from the socket (the tracepoint has more than the ten
 * fields dtx reads).
 */
sdt:sock::inet_sock_set_state
/args[6] == IPPROTO_TCP/
{
	this->sk = (struct sock *)args[0];
	this->v6 = args[5] == AF_INET6;
	this->ms = changed[args[0]] ? (timestamp - changed[args[0]]) / 1000000 : 0;
	printf("%-18p %7d %-12s %-15s %5d %-15s %5d %-11s -> %-11s %7d\n", args[0], pid,
	    execname,
	    this->v6 ? inet_ntop(AF_INET6, &this->sk->__sk_common.skc_v6_rcv_saddr) :
	    inet_ntop(AF_INET, &this->sk->__sk_common.skc_rcv_saddr), args[3],
	    this->v6 ? inet_ntop(AF_INET6, &this->sk->__sk_common.skc_v6_daddr) :
	    inet_ntop(AF_INET, &this->sk->__sk_common.skc_daddr), args[4],
	    state[args[1]], state[args[2]], this->ms);
	changed[args[0]] = timestamp;
}

/* A closed socket's time is no longer needed. */
sdt:sock::inet_sock_set_state
/args[6] == IPPROTO_TCP && args[2] == 7/
{
	changed[args[0]] = 0;
}
