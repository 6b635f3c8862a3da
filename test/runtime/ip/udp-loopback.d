/* dtx-args: -q -c ./udp-loopback.py */
/*
 * ip:::send and ip:::receive of two 100-byte UDP datagrams over loopback,
 * IPv4 and IPv6, in one clause: ipinfo_t (version, payload length with the
 * 8-byte UDP header, addresses), ifinfo_t (lo) and ipv4info_t or ipv6info_t
 * (the other NULL), and the sending socket's csinfo_t.
 */

ip:::send,
ip:::receive
/args[3]->if_local && args[2]->ip_plength == 108/
{
	@[probename, args[2]->ip_ver, args[2]->ip_saddr, args[2]->ip_daddr, args[3]->if_name,
	    args[4] ? args[4]->ipv4_protostr : args[5]->ipv6_nextstr,
	    args[4] ? args[4]->ipv4_ttl : args[5]->ipv6_hlim,
	    args[1] != NULL && args[1]->cs_addr != 0] = count();
}

END
{
	printa("%-8s v%d %-9s -> %-9s %s %s ttl %d socket %d: %@d\n", @);
}
