/* dtx-args: -q -x pcapsize=40 -x pcapfile=/tmp/dtx-pcap-@RUN_TEST_PID@.pcap -c './udp-datagram.py /tmp/dtx-pcap-@RUN_TEST_PID@.pcap' */
/*
 * With pcapfile, pcap() writes nothing to the output but a pcap file the
 * trigger reads back: its header (link type 101, LINKTYPE_RAW, for PCAP_IP's
 * DLT_RAW; snaplen pcapsize) and the packet's: pcapsize bytes of the
 * 64-byte datagram, its length, and a timestamp since the epoch.
 */

ip:::receive
/args[2]->ip_ver == 4 && args[2]->ip_plength == 8 + 36/
{
	pcap((void *)arg0, PCAP_IP);
}
