/* dtx-args: -q -c ./udp-datagram.py */
/*
 * pcap() without pcapfile shows the packet as tracemem() shows memory (what
 * dtrace does where there is no tshark): the received datagram from its
 * IPv4 header (skb->data on ip:::receive) to the end of its payload, the
 * linear part of the sk_buff, all of it within the default pcapsize.
 */

ip:::receive
/args[2]->ip_ver == 4 && args[2]->ip_plength == 8 + 36/
{
	pcap((void *)arg0, PCAP_IP);
	printf("---\n");
}
