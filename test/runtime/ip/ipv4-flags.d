/* dtx-args: -q -c ./ipv4-flags.py */
/*
 * ipv4info_t's ipv4_flags and ipv4_offset as DTrace splits the header's
 * flags and fragment offset: a datagram sent with Don't Fragment has flags
 * 4, one without it 0, and neither is a fragment (offset 0). The trigger
 * sends 60 and 70 bytes of UDP payload (68 and 78 with the UDP header).
 */

ip:::send,
ip:::receive
/args[4] && args[3]->if_local &&
    (args[2]->ip_plength == 68 || args[2]->ip_plength == 78)/
{
	@[probename, args[2]->ip_plength, args[4]->ipv4_flags, args[4]->ipv4_offset] = count();
}

END
{
	printa("%-8s payload %d flags %d offset %d: %@d\n", @);
}
