/* dtx-args: -q -c ./connect-close.py */
/*
 * tcp:::state-change through a connection's life on 127.0.0.1: each change
 * with the previous state (tcplsinfo_t), the new one and both addresses
 * (tcpsinfo_t), counted per socket role and transition, since the two ends
 * change on any CPU in either order. A socket is known by its first change
 * (its ports are gone by its last).
 */

tcp:::state-change
/role[args[3]->tcps_addr] == "" && (args[3]->tcps_lport == 47671 || args[3]->tcps_rport == 47671)/
{
	role[args[3]->tcps_addr] = args[3]->tcps_rport == 0 ? "listener" :
	    args[3]->tcps_lport == 47671 ? "server" : "client";
}

tcp:::state-change
/role[args[3]->tcps_addr] != ""/
{
	@[role[args[3]->tcps_addr], tcp_state_string[args[5]->tcps_state],
	    tcp_state_string[args[3]->tcps_state], args[3]->tcps_laddr,
	    args[1]->cs_cid == args[3]->tcps_addr ? "same" : "differ"] = count();
}

END
{
	printa("%-8s %-18s -> %-18s %s %s %@d\n", @);
}
