/* dtx-args: -q -c ./udp-loopback.py */
/*
 * udp:::send and udp:::receive of two 100-byte datagrams over loopback,
 * IPv4 and IPv6, in one clause: udpinfo_t (the header: length 108, the
 * same ports both ways), ipinfo_t, and udpsinfo_t (the sending socket; NULL
 * on receive, which is below the socket layer here).
 */

udp:::send
/args[4]->udp_length == 108/
{
	sport[args[2]->ip_ver] = args[4]->udp_sport;
	dport[args[2]->ip_ver] = args[4]->udp_dport;
}

udp:::send,
udp:::receive
/args[4]->udp_length == 108/
{
	@[probename, args[2]->ip_ver, args[2]->ip_saddr, args[2]->ip_daddr,
	    args[4]->udp_sport == sport[args[2]->ip_ver] &&
	    args[4]->udp_dport == dport[args[2]->ip_ver] ? "same ports" : "other ports",
	    args[3] != NULL ? "socket" : "no socket"] = count();
}

END
{
	printa("%-8s v%d %-9s -> %-9s %s, %s: %@d\n", @);
}
