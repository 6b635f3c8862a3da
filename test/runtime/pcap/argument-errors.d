/* dtx-args: -q */
/*
 * pcap(void *, int): two arguments, a pointer (an sk_buff's) and an integer
 * (the protocol).
 */

BEGIN
{
	pcap();
	pcap((void *)0);
	pcap((void *)0, PCAP_IP, 1);
	pcap("skb", PCAP_IP);
	pcap(12345, PCAP_IP);
	pcap((void *)0, "ip");
}
