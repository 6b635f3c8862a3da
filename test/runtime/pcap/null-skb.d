/* dtx-args: -q */
/* A NULL sk_buff records a packet of no bytes, which pcap() shows as nothing. */

BEGIN
{
	pcap((void *)0, PCAP_ETHER);
	printf("%d %d %d %d %d %d\n", PCAP_NULL, PCAP_ETHER, PCAP_PPP, PCAP_IP, PCAP_WIFI,
	    PCAP_IPOIB);
	exit(0);
}
