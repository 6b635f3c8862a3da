/*
 * Network constants and address types, as DTrace's net.d and dtrace-utils'
 * ip.d name them, with Linux's values: the address families (AF_INET6 is
 * 10 on Linux, 26 on Solaris), IP protocol numbers, link-layer (ARP
 * hardware) types for link_ntop() and Ethernet frame types.
 *
 * ipaddr_t is an IPv4 address as the kernel keeps it, in network byte
 * order; in6_addr_t is the kernel's struct in6_addr (from its BTF).
 */

typedef uint32_t ipaddr_t;
typedef struct in6_addr in6_addr_t;

inline int AF_UNSPEC = 0;
inline int AF_LOCAL = 1;
inline int AF_UNIX = 1;
inline int AF_INET = 2;
inline int AF_AX25 = 3;
inline int AF_IPX = 4;
inline int AF_APPLETALK = 5;
inline int AF_NETROM = 6;
inline int AF_BRIDGE = 7;
inline int AF_ATMPVC = 8;
inline int AF_X25 = 9;
inline int AF_INET6 = 10;
inline int AF_ROSE = 11;
inline int AF_DECnet = 12;
inline int AF_NETBEUI = 13;
inline int AF_SECURITY = 14;
inline int AF_KEY = 15;
inline int AF_NETLINK = 16;
inline int AF_ROUTE = 16;
inline int AF_PACKET = 17;
inline int AF_ASH = 18;
inline int AF_ECONET = 19;
inline int AF_ATMSVC = 20;
inline int AF_RDS = 21;
inline int AF_SNA = 22;
inline int AF_IRDA = 23;
inline int AF_PPPOX = 24;
inline int AF_WANPIPE = 25;
inline int AF_LLC = 26;
inline int AF_IB = 27;
inline int AF_MPLS = 28;
inline int AF_CAN = 29;
inline int AF_TIPC = 30;
inline int AF_BLUETOOTH = 31;
inline int AF_IUCV = 32;
inline int AF_RXRPC = 33;
inline int AF_ISDN = 34;
inline int AF_PHONET = 35;
inline int AF_IEEE802154 = 36;
inline int AF_CAIF = 37;
inline int AF_ALG = 38;
inline int AF_NFC = 39;
inline int AF_VSOCK = 40;
inline int AF_KCM = 41;
inline int AF_QIPCRTR = 42;
inline int AF_SMC = 43;
inline int AF_XDP = 44;
inline int AF_MCTP = 45;
inline int AF_MAX = 46;

inline int IPPROTO_IP = 0;
inline int IPPROTO_ICMP = 1;
inline int IPPROTO_IGMP = 2;
inline int IPPROTO_IPIP = 4;
inline int IPPROTO_TCP = 6;
inline int IPPROTO_EGP = 8;
inline int IPPROTO_PUP = 12;
inline int IPPROTO_UDP = 17;
inline int IPPROTO_IDP = 22;
inline int IPPROTO_TP = 29;
inline int IPPROTO_DCCP = 33;
inline int IPPROTO_IPV6 = 41;
inline int IPPROTO_RSVP = 46;
inline int IPPROTO_GRE = 47;
inline int IPPROTO_ESP = 50;
inline int IPPROTO_AH = 51;
inline int IPPROTO_MTP = 92;
inline int IPPROTO_BEETPH = 94;
inline int IPPROTO_ENCAP = 98;
inline int IPPROTO_PIM = 103;
inline int IPPROTO_COMP = 108;
inline int IPPROTO_L2TP = 115;
inline int IPPROTO_SCTP = 132;
inline int IPPROTO_UDPLITE = 136;
inline int IPPROTO_MPLS = 137;
inline int IPPROTO_ETHERNET = 143;
inline int IPPROTO_RAW = 255;
inline int IPPROTO_MPTCP = 262;
inline int IPPROTO_HOPOPTS = 0;
inline int IPPROTO_ROUTING = 43;
inline int IPPROTO_FRAGMENT = 44;
inline int IPPROTO_ICMPV6 = 58;
inline int IPPROTO_NONE = 59;
inline int IPPROTO_DSTOPTS = 60;
inline int IPPROTO_MH = 135;

inline int ARPHRD_NETROM = 0;
inline int ARPHRD_ETHER = 1;
inline int ARPHRD_EETHER = 2;
inline int ARPHRD_AX25 = 3;
inline int ARPHRD_IEEE802 = 6;
inline int ARPHRD_ARCNET = 7;
inline int ARPHRD_ATM = 19;
inline int ARPHRD_IEEE1394 = 24;
inline int ARPHRD_EUI64 = 27;
inline int ARPHRD_INFINIBAND = 32;
inline int ARPHRD_SLIP = 256;
inline int ARPHRD_CSLIP = 257;
inline int ARPHRD_CAN = 280;
inline int ARPHRD_PPP = 512;
inline int ARPHRD_CISCO = 513;
inline int ARPHRD_HDLC = 513;
inline int ARPHRD_RAWIP = 519;
inline int ARPHRD_TUNNEL = 768;
inline int ARPHRD_TUNNEL6 = 769;
inline int ARPHRD_LOOPBACK = 772;
inline int ARPHRD_SIT = 776;
inline int ARPHRD_IPGRE = 778;
inline int ARPHRD_IEEE80211 = 801;
inline int ARPHRD_IEEE80211_RADIOTAP = 803;
inline int ARPHRD_IEEE802154 = 804;
inline int ARPHRD_IP6GRE = 823;
inline int ARPHRD_NETLINK = 824;
inline int ARPHRD_VOID = 0xffff;
inline int ARPHRD_NONE = 0xfffe;

inline int ETHERTYPE_PUP = 0x0200;
inline int ETHERTYPE_SPRITE = 0x0500;
inline int ETHERTYPE_IP = 0x0800;
inline int ETHERTYPE_ARP = 0x0806;
inline int ETHERTYPE_REVARP = 0x8035;
inline int ETHERTYPE_AT = 0x809b;
inline int ETHERTYPE_AARP = 0x80f3;
inline int ETHERTYPE_VLAN = 0x8100;
inline int ETHERTYPE_IPX = 0x8137;
inline int ETHERTYPE_IPV6 = 0x86dd;
inline int ETHERTYPE_LOOPBACK = 0x9000;
inline int ETHERTYPE_TRAIL = 0x1000;
inline int ETHERTYPE_NTRAILER = 16;

/*
 * pcap()'s protocols: libpcap's DLT_ link types of the packet's first
 * header, as dtrace-utils' pcap.d names them. Any other DLT_ number may be
 * given as it is.
 */
inline int PCAP_NULL = 0;
inline int PCAP_ETHER = 1;
inline int PCAP_PPP = 9;
inline int PCAP_IP = 12;	/* DLT_RAW: an IPv4 or IPv6 header first */
inline int PCAP_WIFI = 105;
inline int PCAP_IPOIB = 242;
